/**
 * The Playwright test annotations the run report reads to file a failed contract test without
 * reading its error text: failed on its named checks (contracts/fixtures.ts), or on a
 * precondition (contracts/need.ts). A failed test with neither is a crash of the harness run.
 */
export const FAILED_BY_CHECKS = 'failed-by-checks';
export const PRECONDITION = 'precondition';
