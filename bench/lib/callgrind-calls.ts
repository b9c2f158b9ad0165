// The calls a callgrind dump records to the functions a test picks, summed over every caller: how many,
// and the instructions run inside them (their inclusive cost). Exact counts of work done, where a
// client's tally is a window's edges away (streams/instructions.ts).
// Function names are compressed: the first `fn=(id) name` or `cfn=(id) name` names an id, later lines
// give the id alone. A `cfn=` line precedes the `calls=<count> <target>` line of each call it names, and
// the line after that is the call's cost: its position, then Ir (the only event collected here).
// A name callgrind split for recursion ends in 'N; the test sees it without that suffix.
export interface CallTotals {
  calls: number;
  ir: number;
}

export function callsTo(dump: string, pick: (name: string) => boolean): CallTotals {
  const names = new Map<string, string>();
  let callee: string | null = null;
  let picked = false;
  const totals: CallTotals = { calls: 0, ir: 0 };
  for (const line of dump.split('\n')) {
    if (picked) {
      picked = false;
      const ir = Number(line.trim().split(/\s+/).at(-1));
      if (Number.isFinite(ir)) totals.ir += ir;
      continue;
    }
    const fn = /^c?fn=(?:\((\d+)\))?\s*(.*)$/.exec(line);
    if (fn !== null) {
      const [, id, text = ''] = fn;
      let name = text;
      if (id !== undefined) {
        if (text !== '') names.set(id, text);
        else name = names.get(id) ?? '';
      }
      callee = line.startsWith('cfn=') ? name.replace(/'\d+$/, '') : null;
      continue;
    }
    if (callee === null || !line.startsWith('calls=')) continue;
    const count = Number(/^calls=(\d+)/.exec(line)?.[1]);
    if (Number.isInteger(count) && pick(callee)) {
      totals.calls += count;
      picked = true;
    }
    callee = null;
  }
  return totals;
}
