/**
 * How much of the target's data this process read: every list page the one client (client.ts)
 * received — pages, the records on them (tickets among them) and their bytes. Staging holds
 * thousands of records written by people and by earlier runs; a run reads a bounded part of them,
 * and the report says how much (summary.json `reads`, the contract area's headline).
 */
import type { Exchange } from './exchange.ts';
import { listArray } from './list-page.ts';

export interface ReadStats {
  /** List pages answered 2xx. */
  pages: number;
  /** Records on those pages (every resource). */
  records: number;
  /** Of which tickets (the ticket list's rows). */
  tickets: number;
  /** Bytes of those pages' bodies. */
  bytes: number;
}

export const emptyReadStats = (): ReadStats => ({ pages: 0, records: 0, tickets: 0, bytes: 0 });

/** `a + sign·b`, field by field (sign −1: what was read between two readings). */
export function addReadStats(a: ReadStats, b: Partial<ReadStats>, sign = 1): ReadStats {
  return {
    pages: a.pages + sign * (b.pages ?? 0),
    records: a.records + sign * (b.records ?? 0),
    tickets: a.tickets + sign * (b.tickets ?? 0),
    bytes: a.bytes + sign * (b.bytes ?? 0),
  };
}

const stats = emptyReadStats();

/** Counts `ex` when it is a list page (the spec's `list*` operations) answered 2xx. */
export function tallyRead(ex: Exchange, bytes: number): void {
  const op = ex.operation?.operationId ?? '';
  const r = ex.response;
  if (!op.startsWith('list') || !r || r.status < 200 || r.status > 299) return;
  const rows = listArray(r.json) ?? [];
  stats.pages++;
  stats.records += rows.length;
  if (op === 'listTickets') stats.tickets += rows.length;
  stats.bytes += bytes;
}

/** What this process read so far (a copy). */
export const processReadStats = (): ReadStats => ({ ...stats });

/** `1 234 tickets on 56 list pages (7.8 MB)`. */
export function readText(s: ReadStats): string {
  const mb = s.bytes / 1e6;
  const size = mb >= 0.1 ? `${mb.toFixed(1)} MB` : `${Math.round(s.bytes / 1000)} kB`;
  const others = s.records - s.tickets;
  return `${s.tickets} tickets${others > 0 ? ` and ${others} other records` : ''} on ${s.pages} list pages (${size})`;
}

/** `1.2 kB`, `830 B`, `3.4 MB`. */
export const sizeText = (bytes: number): string =>
  bytes >= 1e6
    ? `${(bytes / 1e6).toFixed(1)} MB`
    : bytes >= 1000
      ? `${(bytes / 1000).toFixed(1)} kB`
      : `${bytes} B`;
