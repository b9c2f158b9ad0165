// Which answer a tool request gets, by its Accept header (RFC 9110 §12.5.1): JSON, or one of the two
// streamed forms. Each of the three types gets the q of the most specific range that matches it
// (type/subtype over type/* over */*); the highest q wins, a tie goes to JSON, then NDJSON; q=0 means
// not acceptable. No header, or one that accepts none of the three, is JSON as always: a tool never
// answers 406.
export type ResponseMode = 'json' | 'ndjson' | 'sse';

const OFFERS: ReadonlyArray<readonly [ResponseMode, string, string]> = [
  ['json', 'application', 'json'],
  ['ndjson', 'application', 'x-ndjson'],
  ['sse', 'text', 'event-stream'],
];

// Specificity of a range for one offer: 3 exact, 2 type/*, 1 */*, 0 no match.
function specificity(type: string, subtype: string, offer: readonly [ResponseMode, string, string]): number {
  if (type === '*' && subtype === '*') return 1;
  if (type !== offer[1]) return 0;
  if (subtype === '*') return 2;
  return subtype === offer[2] ? 3 : 0;
}

// The q of one range's parameters: 1 when absent; null when malformed (the range is then ignored).
function qOf(params: string[]): number | null {
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'q') continue;
    const value = param.slice(eq + 1).trim();
    return /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : null;
  }
  return 1;
}

export function negotiate(accept: string): ResponseMode {
  // The common headers, decided without parsing: the JSON path pays nothing for streaming.
  if (accept === '' || accept === '*/*' || accept === 'application/json') return 'json';
  const best = [0, 0, 0]; // specificity per offer
  const q = [0, 0, 0];
  for (const range of accept.toLowerCase().split(',')) {
    const [mediaType = '', ...params] = range.split(';');
    const slash = mediaType.indexOf('/');
    if (slash < 0) continue;
    const type = mediaType.slice(0, slash).trim();
    const subtype = mediaType.slice(slash + 1).trim();
    const weight = qOf(params);
    if (weight === null) continue;
    OFFERS.forEach((offer, i) => {
      const s = specificity(type, subtype, offer);
      if (s > (best[i] as number)) {
        best[i] = s;
        q[i] = weight;
      }
    });
  }
  let chosen = 0;
  for (let i = 1; i < OFFERS.length; i++) if ((q[i] as number) > (q[chosen] as number)) chosen = i;
  return (OFFERS[chosen] as readonly [ResponseMode, string, string])[0];
}
