// Lines of text out of a byte stream that arrives in arbitrary chunks: a line may be split across chunks,
// and so may one character's UTF-8 bytes (the decoder keeps an unfinished sequence for the next chunk).
export class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';
  // Bytes of the line not yet ended: a reader that caps a line's length checks this after each push.
  pendingBytes = 0;

  // The lines this chunk completes, without their line breaks (`\n`, or `\r\n`).
  push(chunk: Uint8Array): string[] {
    const lastBreak = chunk.lastIndexOf(0x0a);
    this.pendingBytes = lastBreak < 0 ? this.pendingBytes + chunk.byteLength : chunk.byteLength - lastBreak - 1;
    this.pending += this.decoder.decode(chunk, { stream: true });
    const parts = this.pending.split('\n');
    this.pending = parts.pop() ?? '';
    return parts.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  }

  // What is left once the bytes end: '' when the text ended with a line break, else its unfinished last
  // line (a stream cut short), with any incomplete character as U+FFFD.
  end(): string {
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    this.pendingBytes = 0;
    return rest;
  }
}
