/**
 * The API input fuzz fails where it must: a 5xx for a body without a requester (fault
 * missing-requester-500), printed as a minimal counterexample with the key redacted; work done
 * behind a rejection (a proxy that lets every write through, then answers 422); a creation
 * answered 200 (reading U5=create-200), judged by the contract suite's own exchange.documented-status
 * with the statuses the spec lists; and an input on which the target drops the connection, or
 * stops answering altogether, which is a failing case with its repro, never "could not run".
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { describe, test } from 'node:test';
import { checks } from '../../core/checks/index.ts';
import { FAULTS } from '../../server/faults.ts';
import { formatApiInputFuzz } from '../../fuzz/api-input/format.ts';
import { apiInputFailures } from '../../fuzz/api-input/rules.ts';
import { fuzzSeed } from '../../fuzz/shared/seed.ts';
import { forwardBuffered } from '../harness/forward-buffered.ts';
import { apiInputFuzzOn, startFuzzTarget } from '../harness/fuzz-target.ts';
import { listenLoopback } from '../harness/listen-loopback.ts';
import { startRejectAfterWorkProxy } from '../harness/reject-after-work.ts';

describe('api input fuzz catches', () => {
  test('missing-requester-500: a 5xx, minimal counterexample, key redacted, seed printed', async () => {
    const svc = await startFuzzTarget(['missing-requester-500']);
    const key = svc.credentials.workspaces.enterprise.keys.full;
    try {
      const r = await apiInputFuzzOn(svc, 60);
      const report = formatApiInputFuzz(r);
      assert.equal(r.passed, false, report);
      const create = r.operations.find((o) => o.operation === 'createTicket');
      assert.ok(
        create !== undefined && create.status === 'failed',
        `createTicket fails:\n${report}`,
      );
      assert.match(create.reason ?? '', /^500\b/);
      // Filed under the registered check that judges the same rule, in the one failure shape.
      assert.equal(create.broken?.check, 'exchange.no-5xx');
      const [failure] = apiInputFailures(r);
      assert.equal(failure?.check, 'exchange.no-5xx');
      assert.equal(failure?.provenance, 'documented');
      assert.equal(failure?.repro, create.counterexample?.transcript);
      const t = create.counterexample?.transcript ?? '';
      assert.match(t, /^> POST \/v1\/tickets HTTP\/1\.1$/m);
      assert.match(t, /^< HTTP\/1\.1 500$/m);
      assert.match(t, /^> authorization: Bearer \[REDACTED\]$/m);
      assert.ok(!report.includes(key) && !JSON.stringify(r).includes(key), 'key redacted');
      assert.ok(report.includes(`FC_SEED=${fuzzSeed()}`), 'the seed is printed');
      // Shrunk: the counterexample body is small, not the first random one.
      const body = t.split('\n').filter((l) => l.startsWith('> {') || l.startsWith('> ['));
      assert.ok(body.join('').length < 300, `a small body: ${body.join('')}`);
      // The fault touches creation only.
      for (const o of r.operations.filter((x) => x.operation !== 'createTicket'))
        assert.equal(o.status, 'passed', `${o.operation} unaffected`);
    } finally {
      await svc.close();
    }
  });

  test('a rejection after the work is done: half-created ticket, changed ticket', async () => {
    const svc = await startFuzzTarget();
    const proxy = await startRejectAfterWorkProxy(svc.baseUrl);
    try {
      const r = await apiInputFuzzOn(svc, 40, {
        baseUrl: proxy.url,
        operations: ['createTicket', 'updateTicket'],
      });
      const report = formatApiInputFuzz(r);
      assert.equal(r.passed, false, report);
      const [create, update] = r.operations;
      assert.match(create?.reason ?? '', /half-created/, report);
      assert.match(update?.reason ?? '', /the ticket changed/, report);
      // Work behind a rejection is its own rule, not a 5xx (it used to be filed as exchange.no-5xx).
      assert.deepEqual(
        apiInputFailures(r).map((f) => f.check),
        ['fuzz.api-input-nothing-half-done', 'fuzz.api-input-nothing-half-done'],
      );
    } finally {
      await proxy.close();
      await svc.close();
    }
  });
});

/**
 * A proxy to a reference deployment that drops the connection on a creation whose body is not a
 * JSON object; with `die`, it also stops listening for good, as a crashed proxy does.
 */
async function droppingProxy(baseUrl: string, die: boolean) {
  const proxy: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    let object = false;
    try {
      const v: unknown = JSON.parse(body.toString('utf8'));
      object = v !== null && typeof v === 'object' && !Array.isArray(v);
    } catch {
      object = false;
    }
    if (req.method === 'POST' && req.url === '/v1/tickets' && !object) {
      req.socket.destroy();
      if (die) {
        proxy.close();
        proxy.closeAllConnections();
      }
      return;
    }
    const up = await forwardBuffered(baseUrl, req, chunks);
    res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? '') });
    res.end(await up.body.text());
  });
  return listenLoopback(proxy);
}

describe('api input fuzz, one judge and a target that must always answer', () => {
  test('U5=create-200: judged by exchange.documented-status with the statuses of the spec, as the contract suite judges it', async () => {
    const check = 'exchange.documented-status';
    const svc = await startFuzzTarget([], { readings: ['U5=create-200'] });
    try {
      const r = await apiInputFuzzOn(svc, 30, { operations: ['createTicket'] });
      const report = formatApiInputFuzz(r);
      const [create] = r.operations;
      const warning = create?.warnings.find((w) => w.broken.check === check);
      assert.ok(warning, `the reading is reported by ${check}:\n${report}`);
      assert.equal(
        warning.broken.provenance,
        checks.get(check).provenance,
        'with the check’s provenance',
      );
      assert.match(warning.reason, /^200 from POST \/v1\/tickets; expected one of 201\b/);
      assert.match(warning.counterexample.transcript, /^< HTTP\/1\.1 200$/m);
      const failure = apiInputFailures(r).find((f) => f.check === check);
      assert.equal(failure?.provenance, 'assumed', 'filed as the contract suite files it');
      // An assumed rule is a warning: the fuzz keeps looking for documented failures.
      assert.equal(create?.cases, 30, report);
      assert.equal(r.passed, true, report);
    } finally {
      await svc.close();
    }
  });

  test('an input on which the target drops the connection is a failing case with its repro', async () => {
    const svc = await startFuzzTarget();
    const proxy = await droppingProxy(svc.baseUrl, false);
    try {
      const r = await apiInputFuzzOn(svc, 40, {
        baseUrl: proxy.url,
        operations: ['createTicket', 'addMessage'],
      });
      const report = formatApiInputFuzz(r);
      assert.equal(r.passed, false, report);
      const [create, message] = r.operations;
      assert.equal(create?.status, 'failed', report);
      assert.equal(create?.broken?.check, 'fuzz.api-input-answered');
      assert.match(create?.reason ?? '', /^no answer \(/);
      assert.match(create?.counterexample?.transcript ?? '', /^< \(no response: /m);
      assert.match(create?.counterexample?.transcript ?? '', /^> POST \/v1\/tickets HTTP\/1\.1$/m);
      const [failure] = apiInputFailures(r);
      assert.equal(failure?.check, 'fuzz.api-input-answered');
      assert.equal(failure?.provenance, 'documented');
      assert.equal(failure?.repro, create?.counterexample?.transcript);
      assert.equal(message?.status, 'passed', 'the target still answers the other operation');
    } finally {
      await proxy.close();
      await svc.close();
    }
  });

  test('an input after which the target stops answering is the counterexample; later operations are not run, said why', async () => {
    const svc = await startFuzzTarget();
    const proxy = await droppingProxy(svc.baseUrl, true);
    try {
      const r = await apiInputFuzzOn(svc, 40, { baseUrl: proxy.url });
      const report = formatApiInputFuzz(r);
      assert.equal(r.passed, false, report);
      const [create, ...rest] = r.operations;
      assert.equal(create?.status, 'failed', report);
      assert.equal(create?.broken?.check, 'fuzz.api-input-answered');
      assert.match(create?.reason ?? '', /the target stopped answering after it/);
      // The input that stopped it, not a smaller one "failing" only because nothing answers.
      assert.match(
        create?.counterexample?.note ?? '',
        /JSON but not an object|malformed JSON/,
        report,
      );
      for (const o of rest) {
        assert.equal(o.status, 'skipped', report);
        assert.match(
          o.notRun ?? '',
          /not run: the target stopped answering after a createTicket case/,
        );
      }
    } finally {
      await proxy.close();
      await svc.close();
    }
  });
});

describe('api input fuzz: input as people type it', () => {
  // The sampler's case each fault fails on, as its note says it.
  const EXPECT: Record<string, RegExp> = {
    'subject-astral-500': /^class sampler: emoji \(plane 1\)/,
    'subject-over-300-500': /^class sampler: subject of 1000 code points/,
    'tags-over-20-500': /^class sampler: 50 tags/,
    'subject-astral-replaced': /^class sampler: emoji \(plane 1\)/,
  };
  for (const [name, note] of Object.entries(EXPECT)) {
    test(`${name}: caught by its check from the class sampler, even with a budget of 5 cases`, async () => {
      const fault = FAULTS.find((f) => f.name === name)!;
      const svc = await startFuzzTarget([name]);
      try {
        const r = await apiInputFuzzOn(svc, 5, { operations: ['createTicket'] });
        const report = formatApiInputFuzz(r);
        const [create] = r.operations;
        assert.equal(r.passed, false, report);
        assert.equal(create?.broken?.check, fault.check, report);
        assert.match(create?.counterexample?.note ?? '', note, report);
        // One rule broken, one failure filed: the fault's check and nothing else.
        assert.deepEqual(
          apiInputFailures(r).map((f) => f.check),
          [fault.check],
        );
        assert.match(report, /NOT SENT \(0 cases\): /, 'what the stop left unsent is shown');
      } finally {
        await svc.close();
      }
    });
  }
});
