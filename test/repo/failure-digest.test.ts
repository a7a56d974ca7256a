/**
 * `npm test` repeats every failure above its closing line (scripts/failure-digest.ts), so a CI log
 * cut to its tail still says what failed and why. The TAP read here is real: node:test's own
 * reporter run over a file with failing, nested and passing tests.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readPlaywrightTests } from '../../contracts/collect.ts';
import { formatFailures, playwrightFailures, tapFailures } from '../../scripts/failure-digest.ts';

function realTap(): string {
  const dir = mkdtempSync(join(tmpdir(), 'digest-'));
  const file = join(dir, 'sample.test.mjs');
  writeFileSync(
    file,
    `import { test } from 'node:test';
import assert from 'node:assert/strict';
test('outer', async (t) => {
  await t.test('inner fails', () => assert.equal(1, 2, "run 2: it's 0 s waited"));
  await t.test('inner passes', () => {});
});
test('top fails', () => { throw new Error('boom\\nsecond line'); });
test('passes', () => {});
`,
  );
  // Without the parent's NODE_TEST_CONTEXT, or the child reports to this runner, not to stdout.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], {
    encoding: 'utf8',
    env,
  });
  return r.stdout;
}

test('node:test TAP: each failed test once, with its message; a parent failing only by its subtest is left out', () => {
  const failures = tapFailures(realTap());
  assert.deepEqual(
    failures.map((f) => f.name),
    ['inner fails', 'top fails'],
  );
  assert.match(failures[0]!.message, /run 2: it's 0 s waited/);
  assert.match(failures[0]!.location ?? '', /sample\.test\.mjs:4:/);
  assert.equal(failures[1]!.message, 'boom\nsecond line');
});

test('a passing TAP: nothing to repeat, no block printed', () => {
  assert.deepEqual(
    tapFailures('TAP version 13\nok 1 - passes\n  ---\n  duration_ms: 1\n  ...\n1..1\n'),
    [],
  );
  assert.equal(formatFailures([]), '');
});

test('Playwright JSON: unexpected tests only (not flaky, not passed), colours stripped', () => {
  const report = {
    suites: [
      {
        title: 'auth.spec.ts',
        specs: [],
        suites: [
          {
            title: 'key rotation',
            specs: [
              {
                title: 'a rotated key stops working',
                file: 'auth.spec.ts',
                line: 17,
                tests: [
                  {
                    status: 'unexpected',
                    results: [
                      {
                        status: 'failed',
                        error: { message: '\u001b[31mReceived 200\u001b[39m / Documented 401' },
                      },
                    ],
                  },
                ],
              },
              {
                title: 'flaky one',
                file: 'auth.spec.ts',
                line: 40,
                tests: [{ status: 'flaky', results: [{ status: 'failed' }, { status: 'passed' }] }],
              },
              {
                title: 'passes',
                file: 'auth.spec.ts',
                line: 60,
                tests: [{ status: 'expected', results: [{ status: 'passed' }] }],
              },
            ],
          },
        ],
      },
    ],
  };
  // Read from a file, as npm test reads Playwright's JSON report.
  const file = join(mkdtempSync(join(tmpdir(), 'digest-pw-')), 'playwright.json');
  writeFileSync(file, JSON.stringify(report));
  const failures = playwrightFailures(readPlaywrightTests(file));
  assert.deepEqual(failures, [
    {
      name: 'key rotation › a rotated key stops working',
      location: 'auth.spec.ts:17',
      message: 'Received 200 / Documented 401',
    },
  ]);
});

test('the block names, locates and quotes each failure, and clips a huge message', () => {
  const text = formatFailures([
    { name: 'three gate runs', location: 'test/x.test.ts:28:1', message: 'run 2: waited\n0 s' },
    { name: 'huge', message: 'x'.repeat(10_000) },
  ]);
  assert.match(text, /what failed \(2\)/);
  assert.match(
    text,
    /1\. three gate runs\n {3}at test\/x\.test\.ts:28:1\n {3}\| run 2: waited\n {3}\| 0 s/,
  );
  assert.match(text, /… \(6000 more characters\)/);
  assert.ok(text.length < 5000);
});
