/**
 * What the harness process itself created on the target — the fuzz area's tickets (the delivery
 * check's, the API input fuzz's targets and every creation a target accepted, a body over any
 * limit included on a target without one) — closed at the end of the area on a real target, as
 * the contract workers close theirs; on the embedded deployment discarded with it.
 */
import type { HarnessConfig } from '../core/config.ts';
import { closedAlready, createdSince, ticketBytes } from '../core/http/created-ledger.ts';
import { type CreatedRecord, cleanUp, discarded } from '../core/target/clean-up.ts';

/** What the area created when its clean-up never ran (the run's time limit cut it short). */
export function uncleanedSince(cfg: HarnessConfig, mark: number, area: string): CreatedRecord[] {
  const base = cfg.baseUrl;
  const made = base ? createdSince(mark, base) : createdSince(mark);
  const records: CreatedRecord[] = base
    ? made.map((c) => {
        const bytes = c.kind === 'ticket' ? ticketBytes(base, c.id)?.bytes : undefined;
        return closedAlready(c, base)
          ? { ...c, state: 'cleaned', ...(bytes !== undefined ? { bytes } : {}) }
          : { ...c, state: 'left', why: 'not cleaned: the run was stopped first' };
      })
    : discarded(made);
  return records.map((r) => ({ ...r, area }));
}

/** How long the clean-up of one area may take (paced by the key's budget). */
const CLEAN_UP_MS = 90_000;

export async function cleanUpSince(
  cfg: HarnessConfig,
  mark: number,
  area: string,
): Promise<CreatedRecord[]> {
  // No key, no creation: a run without HARNESS_API_KEY writes nothing.
  if (!cfg.baseUrl) return discarded(createdSince(mark)).map((r) => ({ ...r, area }));
  const base = cfg.baseUrl;
  const records = await cleanUp(createdSince(mark, base), {
    baseUrl: base,
    key: cfg.apiKey ?? '',
    timeoutMs: cfg.timeoutMs,
    withinMs: CLEAN_UP_MS,
    // A ticket the deployment answered closed (the delivery scenario closes its own) is not
    // closed again: the clean-up sends only what is still to do.
    closedAlready: (c) => closedAlready(c, base),
  });
  return records.map((r) => ({ ...r, area }));
}
