/**
 * The Playwright test annotations the run report reads to file a failed contract test without
 * reading its error text: failed on its named checks (contracts/fixtures.ts), or on a
 * precondition (contracts/need.ts). A failed test with neither is a crash of the harness run.
 */
export const FAILED_BY_CHECKS = 'failed-by-checks';
export const PRECONDITION = 'precondition';
/**
 * How many requests a test judged from answers other tests of the worker got, instead of sending
 * them (its description a count): what it sends more in a run without those tests — the cost
 * estimate of a partial run counts them (run/cost-estimate.ts).
 */
export const BORROWED_REQUESTS = 'borrowed-requests';
/**
 * A test the target's own answers kept from reaching its checks (its rate limit spent: the 429s
 * the key's budget could not wait out): not run, and counted against the documented rules it is
 * tagged with (report/rule-coverage.ts) — unlike a test left out for an option the user did not
 * give (a key, a writable run, --grep, --max-requests).
 */
export const KEPT_BY_TARGET = 'kept-by-target';
