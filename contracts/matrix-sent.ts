/**
 * What one request kind of the rule × operation matrix sent, and how that kind's rules judge it
 * (contracts/rule-matrix.spec.ts). An answer the kind's rules have nothing to judge by is not
 * judged by them at all — the other workspace's list when workspace A has no object of that
 * collection to look for: `isolation.list` with no foreign ids could never fail, so counting it
 * would show a cell as checked that nothing checked. Its cell is recorded not reached, with why;
 * the rules that judge every answer of the suite (rate-limit headers, no 5xx …) still judge it.
 * So is a 429 (RATE_LIMITED), and that one the target kept: it counts against the rule's
 * coverage (report/rule-coverage.ts).
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
 * Why a 429 is no answer of the kind's rules: the target's rate limiter answered in their place.
 * A keyless request's 429 is a refusal, but not by authentication — a deployment that answered
 * every request without a valid key 429 showed nothing of whether it authenticates them, and
 * judging the 429 as the rule's answer let such a run pass without having seen the rule once.
 */
export const RATE_LIMITED =
  "the target answered 429 (Too Many Requests): its rate limiter answered in the rule's place, so the rule's own answer was never seen";

/**
 * Judges each answer by every rule of its request kind (`checks`), or — an answer they cannot
 * judge — records each of those rules not reached on the operation's column, with why; a 429
 * (RATE_LIMITED) as kept by the target itself. The rules that judge every answer still judge it.
 */
export function judgeSent(
  sent: readonly Sent[],
  checks: readonly string[],
  op: OperationSpec,
  judge: (check: string, ex: Exchange, args: MatrixArgs) => unknown,
  notReached: (check: string, column: string, reason: string, byTarget?: boolean) => void,
): void {
  for (const { ex, args, unjudged } of sent) {
    const limited = ex.response?.status === 429;
    for (const c of checks)
      if (limited) notReached(c, op.operationId, RATE_LIMITED, true);
      else if (unjudged === undefined) judge(c, ex, args);
      else notReached(c, op.operationId, unjudged);
  }
}
