import type { Outcome } from '../../tools/outcome';
import type { Exchange } from '../exchange';
import { refuse } from '../refusal';

// A tool's outcome as the response: its result as JSON, or its failure as a problem. A client that
// went away gets nothing (the exchange ignores writes once it is settled).
export function respond<Res>(ex: Exchange, outcome: Outcome<Res>): void {
  if (outcome.ok) ex.json(200, outcome.value);
  else refuse(ex, outcome.failure);
}
