// Progress goes to stderr; stdout carries only the final verdicts.
export const say = (line: string): void => {
  process.stderr.write(`bench: ${line}\n`);
};
