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
  // Object.assign, not a spread followed by keys its source lacks (types, reverseName): that makes V8 give
  // every request a map of its own, and each later read of a field missed its cache (eight a request).
  // The same keys in the same order; the schema refuses any key it does not name (so no "__proto__").
  if (target.kind === 'name') return Object.assign({}, request, { domain: target.value, types: request.types ?? [...DEFAULT_TYPES] });
  const types: RecordType[] = request.types ?? ['PTR'];
  return Object.assign({}, request, { domain: target.value, reverseName: target.reverse, types });
}
