/**
 * A minimal, valid summary.json for the tests that render or read a report without running the
 * gate: one run of nothing against an unreachable loopback target, passed, with whatever the test
 * is about laid over it. The fixed fields (run id, start, duration, target) are the ones no
 * renderer test asserts on, so each test states only what it reads.
 */
import { SUMMARY_SCHEMA, SUMMARY_VERSION, type Summary } from '../../report/summary.ts';

/** The empty passing summary, with `over` replacing its top-level fields. */
export function summaryFixture(over: Partial<Summary> = {}): Summary {
  return {
    schema: SUMMARY_SCHEMA,
    version: SUMMARY_VERSION,
    runId: 'r1',
    startedAt: '2026-11-25T00:00:00Z',
    durationMs: 1000,
    target: { baseUrl: 'http://127.0.0.1:1', embedded: false, faults: [] },
    strict: false,
    verdict: 'pass',
    exitCode: 0,
    areas: {},
    checks: [],
    tests: { passed: 0, failed: 0, skipped: 0, total: 0 },
    ...over,
  };
}
