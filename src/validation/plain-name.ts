// A name already in its ASCII form (lowercase letters, digits, '-', '_' and dots, no "xn--" label, not
// ending in a label WHATWG reads as a number) comes out of domainToASCII unchanged, so one pass over its
// characters decides it, far faster than the full conversion. Anything else (capitals, Unicode, other
// characters, punycode) answers undefined: only the full conversion can say. Where this answers, it answers what the full path
// would (test/validation/plain-name.test.ts compares them).

const DOT = 46;
const HYPHEN = 45;
const UNDERSCORE = 95;
const MAX_LABEL = 63;
const MAX_NAME = 253;

function isLetter(c: number): boolean {
  return c >= 97 && c <= 122;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

// The checks that end a label: its length, hyphens at its edges, and a punycode prefix (undefined).
function labelVerdict(input: string, start: number, end: number): null | undefined | true {
  const length = end - start;
  if (length === 0 || length > MAX_LABEL) return null;
  if (input.charCodeAt(start) === HYPHEN || input.charCodeAt(end - 1) === HYPHEN) return null;
  if (length >= 4 && input.startsWith('xn--', start)) return undefined;
  return true;
}

// `underscores`: whether labels may carry '_' (DNS names do, host names do not).
export function plainAsciiName(input: string, underscores: boolean): string | null | undefined {
  if (input.length === 0 || input.length > MAX_NAME + 1) return null;
  const end = input.charCodeAt(input.length - 1) === DOT ? input.length - 1 : input.length;
  if (end > MAX_NAME) return undefined;
  let start = 0;
  let digitsOnly = true;
  for (let i = 0; i < end; i++) {
    const c = input.charCodeAt(i);
    if (c === DOT) {
      const verdict = labelVerdict(input, start, i);
      if (verdict !== true) return verdict;
      start = i + 1;
      digitsOnly = true;
    } else if (isDigit(c)) {
      continue;
    } else if (isLetter(c) || c === HYPHEN || (c === UNDERSCORE && underscores)) {
      digitsOnly = false;
    } else {
      return undefined;
    }
  }
  const verdict = labelVerdict(input, start, end);
  if (verdict !== true) return verdict;
  // All digits in the last label: the full path refuses it (WHATWG would read it as IPv4).
  if (digitsOnly) return null;
  // "0x..." last: WHATWG reads the name as an IPv4 address in hex (0x7f000001 is 127.0.0.1); the full
  // path turns it into the address and refuses it as one.
  if (input.startsWith('0x', start)) return undefined;
  return end === input.length ? input : input.slice(0, end);
}
