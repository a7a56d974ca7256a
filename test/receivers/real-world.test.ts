/**
 * The receiver fuzz against receivers written the way real teams write them (issue 18's table),
 * each its own process, fuzzed by `harness fuzz receiver` as a user runs it (another process):
 * the three that are correct by the service docs pass — exit 0 — with their missing hardening
 * reported as assumed warnings, each with its reason, in the console and in the JSON; with
 * --strict the warnings fail. An Express app that verifies JSON.stringify(req.body) fails, its
 * cause named as re-serialisation (not as the body class that happened to catch it).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runReceiverFuzz, type ReceiverFuzzResult } from '../../fuzz/receiver/run-receiver-fuzz.ts';
import {
  CREATE_HMAC,
  EXPRESS_JSON,
  EXPRESS_RAW,
  OCTOKIT,
  type RealWorldReceiver,
} from './real-world-receivers.ts';
import { fuzzReceiverCli } from '../harness/fuzz-receiver-cli.ts';
import { spawnReceiver } from './spawn-receiver.ts';

const secret = 'whsec_real-world-7c1d93ab';

async function fuzzReceiverProcess(r: RealWorldReceiver, extra: string[] = []) {
  const receiver = await spawnReceiver(r.source(), secret);
  const json = join(mkdtempSync(join(tmpdir(), 'receiver-fuzz-')), 'result.json');
  try {
    const run = await fuzzReceiverCli(
      [
        '--url',
        receiver.url,
        '--secret-env',
        'HOOK_SECRET',
        '--form',
        r.form,
        '--cases',
        '15',
        '--rate',
        '2000',
        '--max-seconds',
        '90',
        '--seed',
        '18',
        '--json',
        json,
        ...extra,
      ],
      secret,
    );
    const result = JSON.parse(readFileSync(json, 'utf8')) as ReceiverFuzzResult;
    return { ...run, result, url: receiver.url, crashed: receiver.stderr() };
  } finally {
    await receiver.stop();
  }
}

const failedNames = (r: ReceiverFuzzResult) => [
  ...new Set(r.properties.filter((p) => p.status === 'failed').map((p) => p.name)),
];

/** The three correct receivers and the warnings each one must get (issue 18's table). */
const CORRECT: Array<{ receiver: RealWorldReceiver; warnings: string[] }> = [
  {
    receiver: OCTOKIT,
    warnings: [
      'invalid-utf8-body-authenticates',
      'careless-invalid-body-authenticates',
      'rejection-content-length-zero',
    ],
  },
  { receiver: CREATE_HMAC, warnings: ['rejection-content-length-zero'] },
  {
    receiver: EXPRESS_RAW,
    warnings: [
      'non-json-body-authenticates',
      'invalid-utf8-body-authenticates',
      'content-type-variations-authenticate',
      'conflicting-forms-rejected',
    ],
  },
];

describe('receivers written as real teams write them', { timeout: 600_000 }, () => {
  for (const { receiver, warnings } of CORRECT) {
    test(`${receiver.name}: passes, with its missing hardening as assumed warnings`, async () => {
      const { code, out, err, result } = await fuzzReceiverProcess(receiver);
      assert.equal(code, 0, `${out}\n${err}`);
      assert.equal(result.passed, true);
      assert.equal(result.failed, 0);
      assert.ok(result.warnings > 0, 'passes with warnings');
      // Every property carries its provenance in the JSON; every failed one is assumed, with why.
      for (const p of result.properties) {
        assert.ok(['documented', 'assumed'].includes(p.provenance), p.name);
        if (p.provenance === 'assumed') assert.ok((p.why ?? '').length > 20, `${p.name}: why`);
      }
      const failed = result.properties.filter((p) => p.status === 'failed');
      assert.deepEqual(
        failed.filter((p) => p.provenance !== 'assumed').map((p) => p.name),
        [],
        'no documented property failed',
      );
      for (const w of warnings)
        assert.ok(failedNames(result).includes(w), `warned ${w}; got ${failedNames(result)}`);
      assert.match(out, /^warn /m, 'the console marks warnings');
      assert.match(out, /assumed, not failing the run \(fails with --strict\)/);
      assert.match(out, /: PASS — /);
      assert.doesNotMatch(out, /^FAIL /m);
      assert.ok(!out.includes(secret) && !err.includes(secret), 'no secret in the output');

      // The same warnings fail the run with --strict (fuzzed in-process: only those properties).
      const again = await spawnReceiver(receiver.source(), secret);
      try {
        const strict = await runReceiverFuzz({
          url: again.url,
          secret,
          form: receiver.form,
          cases: 15,
          seed: 18,
          rate: Number.POSITIVE_INFINITY,
          only: warnings,
          strict: true,
        });
        assert.equal(strict.passed, false, 'with --strict the warnings fail the run');
        assert.equal(strict.warnings, 0);
      } finally {
        await again.stop();
      }
    });
  }

  test('Express with express.json() verifying JSON.stringify(req.body): fails, named as re-serialisation', async () => {
    const { code, out, result } = await fuzzReceiverProcess(EXPRESS_JSON);
    assert.equal(code, 1, out);
    assert.equal(result.passed, false);
    const careless = result.properties.filter(
      (p) =>
        ['careless-body-authenticates', 'non-canonical-json-authenticates'].includes(p.name) &&
        p.status === 'failed',
    );
    assert.ok(careless.length > 0, `a documented body property failed: ${failedNames(result)}`);
    for (const p of careless) {
      assert.equal(p.provenance, 'documented');
      assert.match(p.cause ?? '', /re-serialising the JSON \(JSON\.parse, then JSON\.stringify/);
      assert.doesNotMatch(p.cause ?? '', /line ending|CRLF/);
      assert.doesNotMatch(p.counterexample ?? '', /caught: /, 'no cause claimed from the class');
    }
    assert.match(out, /cause, shown by re-signed requests: .*re-serialising the JSON/);
  });
});
