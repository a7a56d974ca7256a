/**
 * The other workspace's key on a count of a list (the rule × operation matrix's `other-workspace`
 * request on a `counts` column: GET /v1/reports/summary, whose `tickets.total` counts
 * /v1/tickets — both read from the spec, core/spec/operations.ts). Judged by isolation.count.
 *
 * A count is an aggregate, and on a shared deployment it moves while the run's other tests create
 * objects in parallel workers. What makes the judgement race-free: v1 has no deletion of tickets,
 * so workspace B's own count only grows. B's report is read first, THEN B's own list is walked to
 * its end: a report counting more than that list shows afterwards counted objects that are not
 * B's. Workspace A must have an object of the list when the report is made (found or made first,
 * as the list's isolation does: MatrixObjects.ownIds), or a leak could not show.
 *
 * Bounded: the walk reads at most `COUNT_WALK_PAGES` pages at the list's largest page size, and no
 * more than B's key has above its reserve (core/http/key-budget.ts) when the report answers. A
 * long-lived staging whose B holds thousands of tickets gets the cell not reached with why — B's
 * list read only partly would show fewer than B has, a false failure — never a long walk.
 */
import type { HarnessConfig } from '../core/config.ts';
import type { ApiClient } from '../core/http/api-client.ts';
import { budgetTime, keyBudget } from '../core/http/key-budget.ts';
import { readRateHeaders } from '../core/http/rate-budget.ts';
import type { OperationSpec } from '../core/spec/operations.ts';
import type { AObject, MatrixObjects } from './matrix-objects.ts';
import { label, type Sent } from './matrix-sent.ts';
import { walkTickets } from './ticket-walk.ts';
import { listArray } from '../core/http/list-page.ts';

/** The most pages of B's list the walk reads (one at the reference's size: B has a few). */
export const COUNT_WALK_PAGES = 5;

/** Page size when the spec gives the list no `limit` maximum (the walk sends `limit` anyway). */
const DEFAULT_PAGE = 100;

/**
 * What the walk needs of the run's configuration: the plans keys are listed under (B's burst).
 * Not `reserve`: the user's --reserve, and the one the run resolves from the preflight, are
 * HARNESS_API_KEY's; B's key keeps the default share of its own burst.
 */
export type KeyConfig = Pick<HarnessConfig, 'planKeys' | 'enterpriseLimits'>;

/** The pages B's key may spend on the walk now: the cap, or fewer above its reserve (and why). */
export function walkPages(
  report: Sent['ex'],
  otherKey: string | undefined,
  cfg: KeyConfig,
): { pages: number; why: string } {
  const cap = { pages: COUNT_WALK_PAGES, why: `the walk's cap of ${COUNT_WALK_PAGES} pages` };
  const rate = report.response ? readRateHeaders(report.response.headers) : undefined;
  const budget = keyBudget(rate, {
    planKeys: cfg.planKeys,
    enterpriseLimits: cfg.enterpriseLimits,
    apiKey: otherKey,
  });
  if (!budget) return cap;
  const { availableNow } = budgetTime(0, budget);
  return availableNow >= cap.pages
    ? cap
    : {
        pages: availableNow,
        why: `the other workspace's key has ${budget.remaining} requests left, ${availableNow} above its reserve of ${budget.reserve} (${budget.reserveFrom})`,
      };
}

/**
 * B's report (`b`) and, after it, B's own list of each list it counts, walked to its end — one
 * answer per count, judged on it, or carrying why it cannot be (its cell: not reached).
 */
export async function otherWorkspaceCounts(c: {
  api: ApiClient;
  b: ApiClient;
  op: OperationSpec;
  ops: readonly OperationSpec[];
  path: string;
  objects: readonly AObject[];
  all: MatrixObjects;
  otherKey: string | undefined;
  cfg: KeyConfig;
}): Promise<Sent[]> {
  const { api, b, op, ops, path, objects, all } = c;
  // Workspace A's objects first: made before the report, they are what a leak would add to it.
  const prepared = [];
  for (const count of op.counts) {
    const list = ops.find((o) => o.list && o.method === 'GET' && o.template === count.collection)!;
    const own = await all.ownIds(api, list, [...objects, ...(await all.resolved())]);
    const deletion = ops.find(
      (o) => o.method === 'DELETE' && o.template.startsWith(`${count.collection}/{`),
    );
    prepared.push({ count, list, own, deletion });
  }
  const ex = await b.send(op.method, path);
  const status = ex.response?.status;
  const answered = status !== undefined && status >= 200 && status < 300;
  const budget = answered ? walkPages(ex, c.otherKey, c.cfg) : undefined;
  const out: Sent[] = [];
  for (const { count, list, own, deletion } of prepared) {
    const args = { operation: label(op) };
    const unjudged = (why: string): Sent => ({
      ex,
      args,
      unjudged: `not reachable on this target: ${why}`,
    });
    if (!answered) {
      out.push(unjudged(`the report answered workspace B ${status ?? ex.error}: no count`));
      continue;
    }
    if (typeof own === 'string') {
      out.push(unjudged(own));
      continue;
    }
    if (deletion) {
      // Deletable objects: B's count may shrink between the report and the walk.
      out.push(unjudged(`the spec deletes ${count.collection} objects (${label(deletion)})`));
      continue;
    }
    const limit = list.pageMax ?? DEFAULT_PAGE;
    const walk = budget!.pages
      ? await walkTickets(
          (query) => b.send('GET', list.template, { query: query as Record<string, string> }),
          { limit, maxPages: budget!.pages },
        )
      : undefined;
    const last = walk?.last?.response;
    if (!walk || walk.stoppedBy === 'cap') {
      out.push(
        unjudged(
          `workspace B's GET ${list.template} was not walked to its end (${walk ? `${walk.pages} pages of ${limit}, ${walk.seen.length} objects, more after` : 'not sent'}): ${budget!.why}`,
        ),
      );
      continue;
    }
    if (last?.status !== 200 || !listArray(last.json)) {
      out.push(
        unjudged(
          `workspace B's GET ${list.template} answered ${last?.status ?? walk.last?.error} on page ${walk.pages}: no list to count`,
        ),
      );
      continue;
    }
    // The end is what the list shows (ticket-walk.ts): a full page that names no next page and
    // does not say it is the last (has_more false, U4) may have more after it — B's count unknown.
    if (!walk.endKnown) {
      out.push(
        unjudged(
          `workspace B's GET ${list.template} page ${walk.pages} is full (${limit}) and names no next page nor says it is the last: where its list ends is not known`,
        ),
      );
      continue;
    }
    out.push({
      ex,
      args: {
        ...args,
        count: { path: count.path, collection: list.template, listed: new Set(walk.seen).size },
      },
    });
  }
  return out;
}
