/**
 * Operations compared: which operations and statuses were seen, and per status the header names
 * and content types; bodies go to compare-bodies.ts.
 */
import type { OperationObservation } from '../../core/snapshot/types.ts';
import { compareBody, sometimesMissing } from './compare-bodies.ts';
import { byText, union } from './order.ts';
import type { Findings } from './rules.ts';

const RATE_HEADERS = /^(x-ratelimit-|retry-after$)/;
const byStatus = (a: string, b: string) => Number(a) - Number(b) || a.localeCompare(b);

export function compareOperations(
  out: Findings,
  a: Record<string, OperationObservation>,
  b: Record<string, OperationObservation>,
  /**
   * Both snapshots whole, when `a` and `b` were kept to the tests both runs ran (exercised.ts). A
   * status one side saw only through a test the other did not run is no change when the other side
   * saw it through another test: which test first created the run's shared ticket is not behaviour.
   */
  whole: readonly [Record<string, OperationObservation>, Record<string, OperationObservation>] = [
    a,
    b,
  ],
): void {
  const seenWhole = (side: 0 | 1, op: string, status?: string) =>
    status === undefined ? Boolean(whole[side][op]) : Boolean(whole[side][op]?.statuses[status]);
  const missing = sometimesMissing(
    Object.values(a).flatMap((o) => Object.values(o.statuses).map((s) => s.shape)),
  );
  for (const op of union(a, b).sort(byText)) {
    const x = a[op];
    const y = b[op];
    if (!y) {
      if (seenWhole(1, op)) continue;
      out.add(
        'operation-not-observed',
        `${op} was not answered in this run (the baseline saw ${Object.keys(x!.statuses).join(', ')})`,
        { operation: op },
        { baseline: Object.keys(x!.statuses) },
      );
      continue;
    }
    if (!x) {
      if (seenWhole(0, op)) continue;
      out.add(
        'operation-added',
        `${op} answered ${Object.keys(y.statuses).join(', ')}; the baseline never saw it`,
        { operation: op },
        { current: Object.keys(y.statuses) },
      );
      continue;
    }
    const now = Object.keys(y.statuses).sort(byStatus);
    for (const status of union(x.statuses, y.statuses).sort(byStatus)) {
      const s = x.statuses[status];
      const t = y.statuses[status];
      const at = { operation: op, status };
      if (!t) {
        if (seenWhole(1, op, status)) continue;
        out.add(
          'status-removed',
          `${op} no longer answers ${status} (now ${now.join(', ') || 'nothing'})`,
          at,
          { baseline: status, current: now },
        );
        continue;
      }
      if (!s) {
        if (seenWhole(0, op, status)) continue;
        out.add(
          status.startsWith('5') ? 'server-error-added' : 'status-added',
          `${op} now answers ${status}`,
          at,
          { current: status },
        );
        continue;
      }
      // Sent by only some answers of the baseline: depends on something (the data) — weak.
      const sometimes = new Set((s.sometimes ?? []).map((h) => h.toLowerCase()));
      compareList(out, at, s.headers, t.headers, 'header', (h) => sometimes.has(h));
      compareList(
        out,
        at,
        s.contentTypes,
        t.contentTypes,
        'content type',
        () => s.contentTypes.length > 1,
      );
      compareBody(out, at, s.shape, t.shape, missing);
    }
  }
}

function compareList(
  out: Findings,
  at: { operation: string; status: string },
  a: readonly string[],
  b: readonly string[],
  what: 'header' | 'content type',
  /** The baseline had `v` only sometimes. */
  sometimes: (v: string) => boolean,
): void {
  const norm = (xs: readonly string[]) => new Set(xs.map((x) => x.toLowerCase()));
  const x = norm(a);
  const y = norm(b);
  for (const v of [...x].sort()) {
    if (y.has(v)) continue;
    if (what === 'header')
      out.add(
        RATE_HEADERS.test(v) ? 'ratelimit-header-removed' : 'response-header-removed',
        `${at.operation} ${at.status} no longer sends ${v}`,
        { ...at, header: v },
        { baseline: v },
        { weak: sometimes(v) },
      );
    else
      out.add(
        'content-type-removed',
        `${at.operation} ${at.status} no longer answers ${v} (now ${[...y].join(', ') || 'none'})`,
        { ...at, contentType: v },
        { baseline: v, current: [...y] },
        { weak: sometimes(v) },
      );
  }
  for (const v of [...y].sort()) {
    if (x.has(v)) continue;
    if (what === 'header')
      out.add(
        'response-header-added',
        `${at.operation} ${at.status} now sends ${v}`,
        { ...at, header: v },
        { current: v },
      );
    else
      out.add(
        'content-type-added',
        `${at.operation} ${at.status} now answers ${v}`,
        { ...at, contentType: v },
        { current: v },
      );
  }
}
