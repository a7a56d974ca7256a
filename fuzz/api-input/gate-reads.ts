/**
 * The reads of the packed (gate-sized) input fuzz on the ticket its update and message cases
 * share (api-input.ts caseCheck, deferred): the order its cases are sent in, and how many reads
 * that order costs on a correct deployment — fuzz/fuzz-size.ts counts the plan from it, so the
 * count is the fuzz's own rule, not a copy.
 *
 * A refused write is held to the ticket as last read, once for a whole run of them: the read
 * comes before the next accepted write (which changes the ticket) or after the last case. An
 * accepted write is judged on its own answer; after it the ticket is read again only when a
 * refused write next needs a "before".
 */
import { expectedAccepted } from '../arbitraries/body-cases/packed-sampler.ts';
import type { BodyCase } from '../arbitraries/body-cases/body-case.ts';

/**
 * The cases in the order that needs the fewest reads: on a ticket whose state is known (`fresh`),
 * the refused writes first, then the accepted ones; on one written since it was read, the
 * accepted first, then one read before the refused ones.
 */
export function gateOrder(sampler: readonly BodyCase[], fresh: boolean): BodyCase[] {
  const accepted = sampler.filter(expectedAccepted);
  const refused = sampler.filter((c) => !expectedAccepted(c));
  return fresh ? [...refused, ...accepted] : [...accepted, ...refused];
}

/**
 * The reads `order` costs when every case is answered as its kind expects, starting on a known
 * (`fresh`) ticket or not; and whether the ticket is known after the last case.
 */
export function gateReads(
  order: readonly BodyCase[],
  fresh: boolean,
): { reads: number; fresh: boolean } {
  let reads = 0;
  let known = fresh;
  let pending = 0;
  for (const c of order) {
    if (expectedAccepted(c)) {
      if (pending > 0) {
        reads++;
        pending = 0;
      }
      known = false;
    } else {
      if (!known) {
        reads++;
        known = true;
      }
      pending++;
    }
  }
  if (pending > 0) reads++;
  return { reads, fresh: known };
}
