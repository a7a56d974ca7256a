/**
 * What this process created on a target: every answer the one client (client.ts) gets to a
 * creation operation of the spec that names the new object's id. Staging is shared and keeps what
 * a run leaves there (tickets are never deleted), so a run closes or deletes what it created and
 * reports what it could not (core/target/clean-up.ts) — including what a fuzzer created by
 * accident, on a target that accepts what it does not validate.
 */
import type { Exchange } from './exchange.ts';

export type CreatedKind = 'ticket' | 'contact' | 'rule';

export interface CreatedObject {
  kind: CreatedKind;
  id: string;
}

/** The spec's creation operations and what each leaves on the target. */
const CREATION = new Map<string, CreatedKind>([
  ['createTicket', 'ticket'],
  ['createContact', 'contact'],
  ['createRule', 'rule'],
]);

/** The object an exchange created: a 2xx answer to a creation operation naming an id. */
export function createdBy(ex: Exchange): CreatedObject | undefined {
  const kind = CREATION.get(ex.operation?.operationId ?? '');
  const r = ex.response;
  if (!kind || !r || r.status < 200 || r.status > 299) return undefined;
  const id = (r.json as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && id.length > 0 ? { kind, id } : undefined;
}

const ledger: Array<CreatedObject & { baseUrl: string }> = [];

/** Notes what `ex` created on the target at `baseUrl`, if anything (called by the client). */
export function noteCreated(baseUrl: string, ex: Exchange): void {
  const made = createdBy(ex);
  if (made) ledger.push({ ...made, baseUrl });
}

/** A mark in the ledger: `createdSince(mark, …)` gives what was created after it. */
export const ledgerMark = (): number => ledger.length;

/**
 * What this process created since `mark`, oldest first, once each: on the target at `baseUrl`, or
 * anywhere (undefined: the embedded deployments this process started).
 */
export function createdSince(mark: number, baseUrl?: string): CreatedObject[] {
  const seen = new Set<string>();
  const out: CreatedObject[] = [];
  for (const c of ledger.slice(mark)) {
    const key = `${c.kind}\u0000${c.id}`;
    if ((baseUrl !== undefined && c.baseUrl !== baseUrl) || seen.has(key)) continue;
    seen.add(key);
    out.push({ kind: c.kind, id: c.id });
  }
  return out;
}
