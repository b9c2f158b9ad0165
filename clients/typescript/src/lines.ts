// Lines of text out of a byte stream that arrives in arbitrary chunks: a line may be split across chunks,
// and so may one character's UTF-8 bytes (the decoder keeps an unfinished sequence for the next chunk).
export class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';

  // The lines this chunk completes, without their line breaks (`\n`, or `\r\n`).
  push(chunk: Uint8Array): string[] {
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
    return rest;
  }
}
