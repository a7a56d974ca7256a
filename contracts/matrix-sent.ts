/**
 * What one request kind of the rule × operation matrix sent, and how that kind's rules judge it
 * (contracts/rule-matrix.spec.ts). An answer the kind's rules have nothing to judge by is not
 * judged by them at all — the other workspace's list when workspace A has no object of that
 * collection to look for: `isolation.list` with no foreign ids could never fail, so counting it
 * would show a cell as checked that nothing checked. Its cell is recorded not reached, with why;
 * the rules that judge every answer of the suite (rate-limit headers, no 5xx …) still judge it.
 */
import type { MatrixArgs } from '../core/checks/applies-to.ts';
import type { Exchange } from '../core/checks/types.ts';
import { listRows } from '../core/http/list-page.ts';
import type { ApiClient } from '../core/http/api-client.ts';
import type { OperationSpec } from '../core/spec/operations.ts';
import type { AObject, MatrixObjects } from './matrix-objects.ts';

/** One answer of a matrix request, what its rules read, or why they cannot judge it. */
export interface Sent {
  ex: Exchange;
  args: MatrixArgs;
  /** Why the kind's rules have nothing to judge this answer by (its cells: not reached). */
  unjudged?: string;
}

export const label = (op: OperationSpec) => `${op.method} ${op.template}`;

/** The ids of the rows of a list answer, whatever its envelope. */
export function rowIds(ex: Exchange): string[] {
  return listRows(ex.response?.json)
    .map((r) => r.id)
    .filter((id): id is string => typeof id === 'string');
}

/**
 * The other workspace's key (`b`) on a list and each of its enum filters, judged against
 * workspace A's objects of that collection (`MatrixObjects.ownIds`, with A's key `api`). When A
 * has none, the requests still go out (every-answer rules judge them) but carry the reason.
 */
export async function otherWorkspaceLists(c: {
  api: ApiClient;
  b: ApiClient;
  op: OperationSpec;
  path: string;
  body?: unknown;
  objects: readonly AObject[];
  all: MatrixObjects;
}): Promise<Sent[]> {
  const { api, b, op, path, body, objects, all } = c;
  const own = await all.ownIds(api, op, [...objects, ...(await all.resolved())]);
  // Read after ownIds: the object it made for this list is among the resolved ones.
  const mine = [...objects, ...(await all.resolved())].find((f) => f.collection === op.template);
  // A filter on the value workspace A's own object has: a leak would show there first.
  const queries: Array<Record<string, string>> = [
    {},
    ...op.filters.map((f) => {
      const v = mine?.json[f.name];
      return { [f.name]: typeof v === 'string' && f.values.includes(v) ? v : f.values[0]! };
    }),
  ];
  const out: Sent[] = [];
  for (const query of queries) {
    const ex = await b.send(op.method, path, { query, body });
    const what = Object.keys(query).length
      ? `${label(op)}?${new URLSearchParams(query)}`
      : label(op);
    out.push(
      typeof own === 'string'
        ? { ex, args: { operation: what }, unjudged: `not reachable on this target: ${own}` }
        : { ex, args: { operation: what, foreignIds: own, seen: rowIds(ex) } },
    );
  }
  return out;
}

/**
 * Judges each answer by every rule of its request kind (`checks`), or — an answer they cannot
 * judge — records each of those rules not reached on the operation's column, with why.
 */
export function judgeSent(
  sent: readonly Sent[],
  checks: readonly string[],
  op: OperationSpec,
  judge: (check: string, ex: Exchange, args: MatrixArgs) => unknown,
  notReached: (check: string, column: string, reason: string) => void,
): void {
  for (const { ex, args, unjudged } of sent)
    for (const c of checks)
      if (unjudged === undefined) judge(c, ex, args);
      else notReached(c, op.operationId, unjudged);
}
