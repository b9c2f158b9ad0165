// Everything the CLI prints passes here: a server (or whoever writes the records it reports) must never
// reach the terminal's control channel. C0 controls but tab and line feed, DEL, C1 controls (8-bit CSI
// and OSC included), the bidi overrides and isolates, and the line and paragraph separators become
// `\uXXXX`. Raw ones can appear only inside JSON.stringify's string literals, where `\uXXXX` is the same
// character to a JSON reader: `--json` output stays valid JSON with the same values.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

export function terminalSafe(line: string): string {
  return line.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// One server string inside a line of text: also no line break or tab of its own, so it cannot forge a
// line (a fake `nettools:` verdict, say) or shift the columns around it.
export function oneLine(text: unknown): string {
  return String(text ?? '').replace(/[\t\n]/g, (c) => (c === '\t' ? '\\t' : '\\n'));
}
