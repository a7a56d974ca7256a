/**
 * Writes contracts/request-costs.json — what each contract test sends to the API (all keys, and
 * the run's own key), with the clean-up close or delete of each object it leaves (the fixtures
 * count it with the test, so the total does not depend on how many workers share the tests), and
 * what a worker sends besides its tests and their clean-up — from the raw files of a run
 * (`reports/latest/raw/costs-*.jsonl`, written by contracts/fixtures.ts). The cost line printed
 * before a run (run/cost-estimate.ts) sums it over the tests the run selects.
 *
 *   npm start -- --skip load --skip fuzz --out /tmp/costs   # against a served Team deployment
 *   node --import tsx scripts/contract-costs.ts /tmp/costs
 *
 * Regenerate it when the suite changes: test/harness/cost-estimate.test.ts fails when a listed
 * test has no cost.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COSTS_FILE, type RequestCosts } from '../run/cost-estimate.ts';

const out = process.argv[2] ?? 'reports/latest';
const dir = join(out, 'raw');
const tests: RequestCosts['tests'] = {};
let workers = 0;
const worker = { sent: 0, key: 0 };
for (const f of readdirSync(dir).filter((n) => n.startsWith('costs-'))) {
  const rows = readFileSync(join(dir, f), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(
      (l) =>
        JSON.parse(l) as {
          test?: string;
          worker?: boolean;
          sent: number;
          key: number;
          borrowed?: number;
        },
    );
  const own = { sent: 0, key: 0 };
  for (const r of rows) {
    if (r.worker) {
      workers++;
      worker.sent += r.sent - own.sent;
      worker.key += r.key - own.key;
    } else if (r.test) {
      tests[r.test] = { sent: r.sent, key: r.key, ...(r.borrowed ? { borrowed: r.borrowed } : {}) };
      own.sent += r.sent;
      own.key += r.key;
    }
  }
}
if (workers === 0)
  throw new Error(`no worker totals in ${dir}: did the contract suite run to its end?`);
const costs: RequestCosts = {
  measuredOn: 'a served reference deployment (Team key), every contract test',
  perWorker: { sent: Math.round(worker.sent / workers), key: Math.round(worker.key / workers) },
  tests: Object.fromEntries(Object.entries(tests).sort(([a], [b]) => a.localeCompare(b))),
};
writeFileSync(COSTS_FILE, `${JSON.stringify(costs, null, 2)}\n`);
process.stdout.write(`${Object.keys(tests).length} tests, ${workers} workers → ${COSTS_FILE}\n`);
