/**
 * Input as people type it, on a deployment we did not start in process: `harness serve` as its own
 * process, reached only through the HARNESS_* variables of the credentials file it writes. The
 * API input fuzz (`harness fuzz api-input`, its own process too) passes against the correct
 * deployment with every input class sent, and fails with each fault that only such input finds,
 * naming the fault's check and only it; `harness run` on the text-input contract tests and the
 * fuzz area files the emoji 500 under exchange.no-5xx alone, in both areas, with the class counts
 * in summary.json.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ApiInputFuzzResult } from '../../fuzz/api-input/api-input.ts';
import { type ServedDeployment, spawnServe } from '../../run/serve-process.ts';
import { FAULTS } from '../../server/faults.ts';
import { runCaptured } from '../harness/run-captured.ts';

const dir = mkdtempSync(join(tmpdir(), 'input-classes-'));
const served: ServedDeployment[] = [];
after(async () => {
  await Promise.all(served.map((s) => s.stop()));
  rmSync(dir, { recursive: true, force: true });
});

/** `harness ARGS` as its own process with only `vars` (and PATH, HOME, a fixed seed) set. */
function harness(args: string[], vars: Record<string, string>, timeoutMs: number) {
  return runCaptured(
    ['--import', 'tsx', 'run/main.ts', ...args],
    { PATH: process.env.PATH, HOME: process.env.HOME, FC_SEED: '20261125', ...vars },
    timeoutMs,
    `harness ${args[0]}`,
  );
}

/** The deployment, with `faults`, on the Growth plan (the gate's keys), as its own process. */
async function serve(faults: string[]): Promise<ServedDeployment> {
  const s = await spawnServe(['--api-plan', 'growth', ...faults.flatMap((f) => ['--fault', f])]);
  served.push(s);
  return s;
}

async function fuzzApiInput(faults: string[]) {
  const s = await serve(faults);
  const json = join(dir, `api-input-${faults.join('-') || 'clean'}.json`);
  const { code, out } = await harness(
    ['fuzz', 'api-input', '--cases', '40', '--max-seconds', '120', '--json', json],
    s.vars,
    180_000,
  );
  await s.stop();
  const result = JSON.parse(readFileSync(json, 'utf8')) as ApiInputFuzzResult;
  return { code, out, result, key: s.vars.HARNESS_API_KEY! };
}

describe('harness fuzz api-input against `harness serve` in its own process', () => {
  test('the correct deployment: exit 0, every input class of every operation sent, counts printed', async () => {
    const { code, out, result, key } = await fuzzApiInput([]);
    assert.equal(code, 0, out.slice(-6000));
    assert.equal(result.passed, true);
    for (const o of result.operations) {
      assert.equal(o.status, 'passed', o.operation);
      assert.deepEqual(
        o.classes.filter((c) => c.cases === 0).map((c) => c.name),
        [],
        `${o.operation}: classes never sent`,
      );
    }
    assert.match(
      out,
      /input classes \(cases that carried each; \d+ of the 40 cases from the class sampler\):/,
    );
    assert.match(out, /^ {6}text: latin-accents \d+, .*lone-surrogate \d+$/m);
    assert.match(out, /^ {6}number: limit-min \d+, .*not-a-number \d+$/m);
    assert.doesNotMatch(out, /NOT SENT/);
    assert.ok(key.length > 10 && !out.includes(key), 'the key is never printed');
    assert.ok(!JSON.stringify(result).includes(key), 'nor written');
  });

  for (const name of [
    'subject-astral-500',
    'subject-over-300-500',
    'tags-over-20-500',
    'subject-astral-replaced',
  ]) {
    test(`${name}: exit 1, filed under its check alone`, async () => {
      const fault = FAULTS.find((f) => f.name === name)!;
      const { code, out, result } = await fuzzApiInput([name]);
      assert.equal(code, 1, out.slice(-6000));
      const failed = result.operations.filter((o) => o.status === 'failed');
      assert.deepEqual(
        failed.map((o) => [o.operation, o.broken?.check]),
        [['createTicket', fault.check]],
        out.slice(-6000),
      );
      assert.match(
        out,
        new RegExp(`minimal counterexample \\[${fault.check.replace('.', '\\.')}, documented\\]`),
      );
      assert.match(out, /^ +# case: [a-z-]+: class sampler: /m);
    });
  }
});

describe('harness run against `harness serve --fault subject-astral-500` in its own process', () => {
  test('contracts and fuzz both fail on exchange.no-5xx, and on nothing else', async () => {
    const s = await serve(['subject-astral-500']);
    const out = join(dir, 'run');
    const { code, out: text } = await harness(
      [
        'run',
        '--out',
        out,
        '--grep',
        'text as people type it|lengths across every boundary|tags lists long and short',
        '--area',
        'contracts,fuzz',
      ],
      s.vars,
      400_000,
    );
    assert.equal(code, 1, text.slice(-6000));
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    for (const area of ['contracts', 'fuzz']) {
      const a = summary.areas[area];
      assert.equal(a.verdict, 'fail', area);
      assert.deepEqual(
        [...new Set(a.documentedFailures.map((f: { check: string }) => f.check))],
        ['exchange.no-5xx'],
        area,
      );
      assert.deepEqual(a.assumptionMismatches, [], area);
    }
    // The class counts are in summary.json: every class of each operation with its count.
    const ops = summary.areas.fuzz.details.input.operations as ApiInputFuzzResult['operations'];
    assert.deepEqual(
      ops.map((o) => o.operation),
      ['createTicket', 'updateTicket', 'addMessage', 'listTickets'],
    );
    const create = ops[0]!;
    assert.ok(create.classes.find((c) => c.name === 'emoji')!.cases >= 1);
    assert.match(readFileSync(join(out, 'index.html'), 'utf8'), /API input fuzz: input classes/);
    await s.stop();
  });
});
