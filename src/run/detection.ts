/**
 * The detection self-test: the contract suite against the reference deployment with each
 * contract/webhook fault of the catalogue on (one Playwright project per fault, running only the
 * tests tagged with the fault's check, strict so assumed checks fail too). A fault is caught when
 * a test of its project fails naming the check. Limit faults are judged by the load self-tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAULTS } from '../../server/faults.ts';
import { redact } from '../redact.ts';
import { readPlaywrightTests } from '../report/collect.ts';
import { runContracts } from './contracts-step.ts';

export interface DetectionRow {
  fault: string;
  check: string;
  provenance: string;
  caught: boolean;
  /** Tests that ran in the fault's project. */
  tests: number;
  /** First failure text naming the check, when caught. */
  evidence?: string;
}

export async function runDetectionMatrix(outDir: string, verbose = false): Promise<DetectionRow[]> {
  mkdirSync(outDir, { recursive: true });
  const json = join(outDir, 'detection-playwright.json');
  await runContracts(
    {
      ...process.env,
      HARNESS_FAULT_MATRIX: '1',
      HARNESS_STRICT: '1',
      HARNESS_OUT_DIR: join(outDir, 'detection-run'),
      PLAYWRIGHT_JSON_OUTPUT_NAME: json,
      FORCE_COLOR: '0',
    },
    15 * 60_000,
    [],
    verbose,
  );
  const tests = readPlaywrightTests(json);
  const rows = FAULTS.filter((f) => f.area !== 'limits').map((f) => {
    const mine = tests.filter((t) => t.project === `fault:${f.name}`);
    const hit = mine.find(
      (t) =>
        t.status !== 'passed' && t.status !== 'skipped' && (t.error ?? '').includes(`[${f.check}]`),
    );
    return {
      fault: f.name,
      check: f.check,
      provenance: f.provenance,
      caught: Boolean(hit),
      tests: mine.filter((t) => t.status !== 'skipped').length,
      evidence: hit ? redact((hit.error ?? '').split('\n').slice(0, 3).join(' ')) : undefined,
    };
  });
  writeFileSync(join(outDir, 'detection-matrix.json'), `${JSON.stringify(rows, null, 2)}\n`);
  writeFileSync(join(outDir, 'detection-matrix.md'), detectionMarkdown(rows));
  return rows;
}

export function detectionMarkdown(rows: DetectionRow[]): string {
  const lines = [
    '| fault | check | provenance | tests run | caught |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.fault} | ${r.check} | ${r.provenance} | ${r.tests} | ${r.caught ? 'yes' : '**NO**'} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
