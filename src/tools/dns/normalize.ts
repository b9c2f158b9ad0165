import type { FormatValues } from '../../validation/format-values';
import { DEFAULT_TYPES } from './schema';
import type { DnsRequest, RecordType } from './types';

// The schema's `domain` format has accepted it: the name's ASCII form, or the IP literal and its reverse
// name, are the ones the format made. Without `types`, a name asks the four classic types and an IP
// literal PTR alone: that is what one asks of an address (the schema leaves the default to this step,
// since it depends on the domain).
export function normalizeDns(request: DnsRequest, formats: FormatValues): DnsRequest {
  const target = formats.domain(request.domain);
  if (target === null) throw new TypeError('dns normalize: a domain its format refused');
  // The keys the request may lack first: a spread followed by keys its source lacks gives every request a
  // map of its own in V8 (Node 20), and each later read of a field then missed its cache (eight a request,
  // some 10000 instructions). A request's own types, when it has them, are the value the spread writes over.
  // reverseName is no request field (the schema refuses keys it does not name).
  const rest: Omit<DnsRequest, 'types'> = request; // its own types, if any, are the ones placed first
  if (target.kind === 'name') return { types: request.types ?? [...DEFAULT_TYPES], ...rest, domain: target.value };
  const types: RecordType[] = request.types ?? ['PTR'];
  return { reverseName: target.reverse, types, ...rest, domain: target.value };
}
