import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { accepts } from './ports';
import { waitFor } from './wait';

export interface NginxProcess {
  child: ChildProcess;
  stop(): Promise<void>; // stops nginx and removes `dir`
}

// nginx in the foreground with every path under `dir` (a temp dir the caller made), `servers` as the body
// of its http block; ready once something accepts on each of `listening` ([address, port]).
export async function runNginx(dir: string, servers: string, listening: ReadonlyArray<readonly [string, number]>, what: string): Promise<NginxProcess> {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir};`).join('\n');
  writeFileSync(join(dir, 'nginx.conf'), `daemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\nevents { worker_connections 1024; }\nhttp {\n  access_log off;\n  default_type text/plain;\n${temp}\n${servers}\n}\n`);
  const child: ChildProcess = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const started = async () => {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    return (await Promise.all(listening.map(([address, port]) => accepts(port, address)))).every(Boolean);
  };
  await waitFor(what, started, { everyMs: 50 });
  return {
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
