/**
 * The API input fuzz against the correct reference deployment, and against one that reads U20
 * otherwise: validation failures answered 400 instead of 422 (still a 4xx with a problem body: it
 * passes).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { RunningService } from '../../server/start.ts';
import type { ApiInputFuzzResult } from '../../fuzz/api-input/api-input.ts';
import { formatApiInputFuzz } from '../../fuzz/api-input/format.ts';
import { fuzzSeed } from '../../fuzz/shared/seed.ts';
import { apiInputFuzzOn, startFuzzTarget } from '../harness/fuzz-target.ts';

async function fuzzDeployment(readings: string[]) {
  const svc = await startFuzzTarget([], { readings });
  try {
    const result = await apiInputFuzzOn(svc, 60);
    return { svc, result };
  } finally {
    await svc.close();
  }
}

describe('api input fuzz on the correct deployment', () => {
  let svc: RunningService;
  let result: ApiInputFuzzResult;
  before(async () => {
    ({ svc, result } = await fuzzDeployment([]));
  });

  test('every answer is a valid success or a 4xx problem, nothing half done', () => {
    assert.equal(result.passed, true, formatApiInputFuzz(result));
    assert.deepEqual(
      result.operations.map((o) => [o.operation, o.status]),
      [
        ['createTicket', 'passed'],
        ['updateTicket', 'passed'],
        ['addMessage', 'passed'],
        ['listTickets', 'passed'],
      ],
    );
    // Judged by the contract suite's checks with the spec's statuses: nothing assumed differs.
    for (const o of result.operations)
      assert.deepEqual(o.warnings, [], `${o.operation}: ${formatApiInputFuzz(result)}`);
  });

  test('both sides of the schema were exercised for every operation', () => {
    for (const o of result.operations) {
      assert.equal(o.cases, 60, `${o.operation}: all cases ran`);
      assert.ok(o.stats.schemaValid.accepted > 0, `${o.operation}: some valid bodies accepted`);
      assert.ok(o.stats.schemaInvalid.rejected > 0, `${o.operation}: some invalid bodies rejected`);
      // The reference takes a mislabelled charset in its stride; any other leniency is news.
      const lenient = o.stats.disagreements.filter((d) => !d.schemaValid);
      assert.ok(
        lenient.every((d) => d.kind === 'media-type'),
        `${o.operation}: invalid bodies accepted: ${JSON.stringify(lenient)}`,
      );
      // A list takes a query, not a body: its cases are all of kind `query`.
      if (o.operation !== 'listTickets')
        assert.ok(
          Object.keys(o.stats.kinds).length >= 8,
          `${o.operation}: many kinds of body: ${JSON.stringify(o.stats.kinds)}`,
        );
      assert.ok(!('500' in o.stats.statuses), `${o.operation}: no 500`);
    }
  });

  test('every input class that applies to an operation was sent to it, the sampler first', () => {
    for (const o of result.operations) {
      assert.ok(o.sampled > 10 && o.sampled < o.cases, `${o.operation}: ${o.sampled} sampled`);
      const never = o.classes.filter((c) => c.cases === 0).map((c) => c.name);
      assert.deepEqual(never, [], `${o.operation}: classes never sent`);
      const families = new Set(o.classes.map((c) => c.family));
      assert.ok(families.has('text'), `${o.operation}: text classes apply`);
      assert.equal(families.has('number'), o.operation === 'listTickets', o.operation);
      assert.equal(families.has('length'), o.operation !== 'listTickets', o.operation);
      assert.equal(
        families.has('tags'),
        ['createTicket', 'updateTicket'].includes(o.operation),
        o.operation,
      );
    }
  });

  test('the result is JSON-serialisable, counts via the summary report, and keeps the key out', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
    assert.equal(result.seed, fuzzSeed());
    assert.equal(result.countedVia, 'reports-summary');
    assert.ok(
      !JSON.stringify(result).includes(svc.credentials.workspaces.enterprise.keys.full),
      'API key not in the result',
    );
  });
});

describe('api input fuzz with U20=400', () => {
  test('400 with a problem body is a 4xx: the property holds', async () => {
    const { result } = await fuzzDeployment(['U20=400']);
    assert.equal(result.passed, true, formatApiInputFuzz(result));
    for (const o of result.operations) {
      assert.ok((o.stats.statuses['400'] ?? 0) > 0, `${o.operation}: 400s seen`);
      assert.ok(!('422' in o.stats.statuses), `${o.operation}: no 422 under the reading`);
    }
  });
});
