/**
 * Every k6 entry script loads in k6's own init context and its options pass k6's validation
 * (`k6 inspect --execution-requirements` builds the scenarios): an import that hangs, a module
 * k6 cannot resolve or a scenario k6 refuses (a sub-second arrival-rate phase) fails here in
 * seconds. Entry scripts are the .ts files directly in load/ that import k6's modules (the rest of
 * load/ is the Node side: the engines, the step, the command).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { K6, NO_K6, runK6 } from './k6-binary.ts';

const loadDir = fileURLToPath(new URL('../../load/', import.meta.url));
const entries = readdirSync(loadDir).filter(
  (f) => f.endsWith('.ts') && /from 'k6[/']/.test(readFileSync(join(loadDir, f), 'utf8')),
);

if (!K6) console.log(`# ${NO_K6}`);

describe(`k6 inspect of every entry script (${K6 ? `${K6.path}, from ${K6.from}` : 'no k6'})`, () => {
  test('the k6 script is an entry script', () => assert.ok(entries.includes('plan-limits.ts')));
  for (const file of entries) {
    for (const plan of ['team', 'growth', 'enterprise']) {
      test(`${file} PLAN=${plan}`, { skip: K6 ? false : NO_K6 }, async () => {
        const run = await runK6(
          [
            'inspect',
            '--execution-requirements',
            '-e',
            `PLAN=${plan}`,
            '-e',
            'ENTERPRISE_RATE=300',
            '-e',
            'ENTERPRISE_BURST=450',
            '-e',
            'TIME_SCALE=1',
            join(loadDir, file),
          ],
          {},
          30_000,
        );
        assert.equal(run.timedOut, false, `k6 inspect hung (killed after 30 s): ${run.stderr}`);
        assert.equal(run.code, 0, `k6 inspect failed: ${run.stderr}${run.stdout}`);
        const opts = JSON.parse(run.stdout) as {
          scenarios: Record<string, unknown>;
          maxVUs: number;
        };
        assert.ok(Object.keys(opts.scenarios).includes('S1'), 'no S1 scenario');
        assert.ok(opts.maxVUs > 0);
      });
    }
  }
});
