/**
 * The clean-up of what a run created on a shared target, and what it leaves there. Nothing in v1
 * deletes a ticket, so a ticket is closed (U7) — and stays in every later list answer, so one
 * larger than a few KB (a long subject or tag list a deployment without limits kept) is cut first
 * (U6: its subject and tags); a contact is deleted (U10); a rule stays (v1 has no way to delete
 * one). What could not be cleaned is listed with why, never silently kept, and every ticket left
 * closed with its size. The contract workers clean what they created (contracts/fixtures.ts), the
 * run what its own process created — the fuzzers' tickets (core/http/created-ledger.ts).
 */
import { type CreatedKind, type CreatedObject, ticketBytes } from '../http/created-ledger.ts';
import { createClient } from '../http/client.ts';
import type { Exchange } from '../http/exchange.ts';
import { sizeText } from '../http/read-tally.ts';
import { undiciTransport } from '../http/undici-transport.ts';

/** What became of a created object. */
export type CleanState =
  /** Closed (a ticket) or deleted (a contact): nothing of the run is left open. */
  | 'cleaned'
  /** Still there as the run left it: `why` says why. */
  | 'left'
  /** On the embedded deployment, thrown away with it. */
  | 'discarded';

export interface CreatedRecord extends CreatedObject {
  state: CleanState;
  why?: string;
  /** The area that created it (`contracts`, `fuzz`). */
  area?: string;
  /** A ticket's size as the deployment last answered it: what each list answer showing it carries. */
  bytes?: number;
}

export interface CleanUpOptions {
  baseUrl: string;
  /** A full-access key of the workspace the objects were created in. */
  key: string;
  timeoutMs: number;
  /** How long the whole clean-up may take (paced by the key's rate budget, so it can wait). */
  withinMs: number;
  /** Sees each exchange of the clean-up (its closes fire webhook events: the delivery ledger). */
  record?: (ex: Exchange) => void;
  /** Tickets the deployment answered closed last: not closed again (a request on a shared key). */
  closedAlready?: (c: CreatedObject) => boolean;
}

/**
 * Closes the tickets (each cut first when larger than created-ledger.ts's `LIST_ROW_BYTES`) and
 * deletes the contacts, one by one; the rest is listed as left.
 */
export async function cleanUp(
  objects: readonly CreatedObject[],
  o: CleanUpOptions,
): Promise<CreatedRecord[]> {
  const out: CreatedRecord[] = [];
  if (objects.length === 0) return out;
  const deadline = performance.now() + o.withinMs;
  // Paced by the key's budget like every request to the API; not evidence of any check.
  const http = createClient({
    baseUrl: o.baseUrl,
    transport: undiciTransport(),
    key: o.key,
    timeoutMs: o.timeoutMs,
    deadline,
    contentType: 'application/json',
    ...(o.record ? { record: o.record } : {}),
  });
  const sized = (r: CreatedRecord): CreatedRecord => {
    const bytes = r.kind === 'ticket' ? ticketBytes(o.baseUrl, r.id)?.bytes : undefined;
    return bytes === undefined ? r : { ...r, bytes };
  };
  let gone: string | undefined;
  try {
    for (const c of objects) {
      if (c.kind === 'rule') {
        out.push({ ...c, state: 'left', why: 'v1 has no way to delete a rule' });
        continue;
      }
      const closed = c.kind === 'ticket' && o.closedAlready?.(c) === true;
      // A target that stopped answering would cost a timeout per object; the time is bounded.
      if (!gone && performance.now() > deadline) gone = "the clean-up's time ran out";
      if (gone) {
        out.push(sized(closed ? { ...c, state: 'cleaned' } : { ...c, state: 'left', why: gone }));
        continue;
      }
      const path = `/v1/${c.kind === 'ticket' ? 'tickets' : 'contacts'}/${encodeURIComponent(c.id)}`;
      // Its size is known from its answers (created-ledger.ts); one the ledger never saw is not cut.
      const cut = c.kind === 'ticket' ? ticketBytes(o.baseUrl, c.id)?.cut : undefined;
      if (cut && Object.keys(cut).length > 0) {
        const trimmed = await http.send('PATCH', path, { body: cut });
        if (trimmed.status === undefined)
          gone = `not tried: the target stopped answering (no answer: ${trimmed.error ?? 'connection lost'})`;
      }
      if (closed || gone) {
        out.push(sized(closed ? { ...c, state: 'cleaned' } : { ...c, state: 'left', why: gone! }));
        continue;
      }
      const answer =
        c.kind === 'ticket'
          ? await http.send('POST', `${path}/close`)
          : await http.send('DELETE', path);
      const status = answer.status;
      // A contact the test deleted itself is gone already: 404 is as good as deleted.
      const done =
        status !== undefined &&
        ((status >= 200 && status < 300) || (c.kind === 'contact' && status === 404));
      if (done) out.push(sized({ ...c, state: 'cleaned' }));
      else {
        const why =
          status === undefined
            ? `no answer (${answer.error ?? 'connection lost'})`
            : `${c.kind === 'ticket' ? 'closing' : 'deleting'} it answered ${status}`;
        out.push(sized({ ...c, state: 'left', why }));
        if (status === undefined) gone = `not tried: the target stopped answering (${why})`;
      }
    }
  } finally {
    await http.close();
  }
  return out;
}

/** Objects of a deployment that is thrown away whole (the embedded one): nothing to clean. */
export const discarded = (objects: readonly CreatedObject[]): CreatedRecord[] =>
  objects.map((c) => ({ ...c, state: 'discarded' }));

/** Per kind: created, cleaned (closed / deleted), left; discarded with the embedded deployment. */
export type LeftCounts = Record<
  CreatedKind,
  { created: number; cleaned: number; left: number; discarded: number }
>;

export interface LeftOnTarget {
  counts: LeftCounts;
  /** What is left (at most `LEFT_LISTED`, the count says how many), with why. */
  left: Array<{ kind: CreatedKind; id: string; why: string; area?: string }>;
  /**
   * The tickets left closed on the target (v1 deletes none): every later list answer shows them.
   * Each with its size as last answered, largest first (at most `CLOSED_LISTED`); `tickets` and
   * `bytes` count them all.
   */
  closed: {
    tickets: number;
    bytes: number;
    list: Array<{ id: string; bytes?: number; area?: string }>;
  };
}

/** How many left objects the report names one by one. */
export const LEFT_LISTED = 50;

/** How many closed tickets the report names one by one (a run leaves about fifty). */
export const CLOSED_LISTED = 200;

export function leftOnTarget(records: readonly CreatedRecord[]): LeftOnTarget {
  const zero = () => ({ created: 0, cleaned: 0, left: 0, discarded: 0 });
  const counts: LeftCounts = { ticket: zero(), contact: zero(), rule: zero() };
  for (const r of records) {
    const c = counts[r.kind];
    c.created++;
    c[r.state]++;
  }
  const left = records
    .filter((r) => r.state === 'left')
    .slice(0, LEFT_LISTED)
    .map((r) => ({
      kind: r.kind,
      id: r.id,
      why: r.why ?? 'not cleaned',
      ...(r.area ? { area: r.area } : {}),
    }));
  const closed = records
    .filter((r) => r.kind === 'ticket' && r.state === 'cleaned')
    .sort((a, b) => (b.bytes ?? 0) - (a.bytes ?? 0));
  return {
    counts,
    left,
    closed: {
      tickets: closed.length,
      bytes: closed.reduce((n, r) => n + (r.bytes ?? 0), 0),
      list: closed.slice(0, CLOSED_LISTED).map((r) => ({
        id: r.id,
        ...(r.bytes !== undefined ? { bytes: r.bytes } : {}),
        ...(r.area ? { area: r.area } : {}),
      })),
    },
  };
}

/**
 * The console line: `left on the target: tickets 142 created, 142 closed (left closed: 61.2 kB,
 * the largest 1.3 kB), 0 left · contacts 1 created, 1 deleted · rules 2 created, 2 left (v1 has no
 * way to delete a rule)`.
 */
export function leftLine(l: LeftOnTarget): string {
  const words: Record<CreatedKind, [string, string]> = {
    ticket: ['tickets', 'closed'],
    contact: ['contacts', 'deleted'],
    rule: ['rules', 'removed'],
  };
  const all = Object.values(l.counts);
  if (all.every((c) => c.created === 0))
    return 'left on the target: nothing (the run created nothing)';
  if (all.every((c) => c.created === c.discarded))
    return `created on the embedded deployment, discarded with it: ${(
      Object.keys(words) as CreatedKind[]
    )
      .filter((k) => l.counts[k].created > 0)
      .map((k) => `${l.counts[k].created} ${l.counts[k].created === 1 ? k : words[k][0]}`)
      .join(', ')}`;
  const largest = l.closed?.list[0]?.bytes;
  const parts = (Object.keys(words) as CreatedKind[])
    .filter((k) => l.counts[k].created > 0)
    .map((k) => {
      const c = l.counts[k];
      const [name, done] = words[k];
      const kinds = [`${c.created} created`];
      if (k === 'ticket' && c.cleaned > 0 && l.closed)
        kinds.push(
          `${c.cleaned} ${done} (left closed: ${sizeText(l.closed.bytes)}${largest !== undefined ? `, the largest ${sizeText(largest)}` : ''})`,
        );
      else if (k !== 'rule') kinds.push(`${c.cleaned} ${done}`);
      kinds.push(`${c.left} left`);
      if (c.discarded) kinds.push(`${c.discarded} on the embedded deployment`);
      return `${name} ${kinds.join(', ')}`;
    });
  const whys = [...new Set(l.left.map((x) => x.why))];
  return `left on the target: ${parts.join(' · ')}${whys.length ? ` (${whys.slice(0, 3).join('; ')})` : ''}`;
}
