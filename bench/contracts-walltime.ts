/**
 * Wall time of the contract suite against the embedded reference deployment, next to the number
 * of requests it made (every exchange is logged to `<out>/raw/exchanges-*.jsonl`, one per line)
 * and the number of tests. Load and fuzz areas are skipped. Prints, asserts nothing.
 *
 * Run: npx tsx bench/contracts-walltime.ts [--keep]   (--keep leaves the report directory)
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { redact } from '../core/redact.ts';
import { runAll } from '../run/run-all.ts';

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });

function countExchanges(out: string): { requests: number; files: number } {
  const raw = join(out, 'raw');
  let files: string[] = [];
  try {
    files = readdirSync(raw).filter((f) => f.startsWith('exchanges-') && f.endsWith('.jsonl'));
  } catch {
    // No raw directory: the suite made no request (or did not start).
  }
  let requests = 0;
  for (const f of files) {
    for (const line of readFileSync(join(raw, f), 'utf8').split('\n')) if (line.trim()) requests++;
  }
  return { requests, files: files.length };
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function main(): Promise<number> {
  const base = mkdtempSync(join(tmpdir(), 'bench-contracts-'));
  // runAll refuses to clear an existing directory it did not create, so give it a fresh one.
  const out = join(base, 'report');
  const t0 = performance.now();
  try {
    const { summary, exitCode } = await runAll({
      skip: ['load', 'fuzz'],
      verbose: false,
      outDir: out,
      log: (l) => process.stderr.write(`${redact(l)}\n`),
    });
    const wallS = (performance.now() - t0) / 1000;
    const details = (summary.areas.contracts as { details?: { wallMs?: number } } | undefined)
      ?.details;
    const playwrightS = details?.wallMs !== undefined ? details.wallMs / 1000 : undefined;
    const { requests, files } = countExchanges(out);
    const t = summary.tests;
    const rows: Array<[string, string]> = [
      ['wall time (runAll, contracts only)', `${fmt(wallS, 1)} s`],
      [
        '  of which the Playwright suite',
        playwrightS === undefined ? 'n/a' : `${fmt(playwrightS, 1)} s`,
      ],
      ['requests made (exchange log lines)', `${fmt(requests)} (in ${files} file(s))`],
      ['requests / s over the whole wall time', fmt(requests / wallS, 1)],
      [
        'requests / s over the Playwright suite',
        playwrightS ? fmt(requests / playwrightS, 1) : 'n/a',
      ],
      ['tests', `${t.total} (${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped)`],
      ['verdict', `${summary.verdict} (exit code ${exitCode})`],
    ];
    const w = Math.max(...rows.map(([k]) => k.length));
    const text = [
      '',
      'Contract suite wall time — embedded reference deployment, load and fuzz skipped',
      `machine: ${cpus().length} CPU(s), load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} at the end`,
      '',
      ...rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`),
      ...(values.keep ? ['', `report kept in ${out}`] : []),
    ].join('\n');
    process.stdout.write(`${redact(text)}\n`);
    return 0;
  } finally {
    if (!values.keep) rmSync(base, { recursive: true, force: true });
  }
}

process.exitCode = await main();
