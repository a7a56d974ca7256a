/**
 * Reads what the contract suite left in `<out>/raw/` (check results, probes, exchanges, one
 * JSONL file per worker) and Playwright's JSON report, for the summary and the snapshot.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult } from '../core/checks/verdict.ts';
import type { ExchangeRow, ProbeRow } from '../core/snapshot/types.ts';
import { FAILED_BY_CHECKS, PRECONDITION } from './annotations.ts';

export interface TestRow {
  title: string;
  file: string;
  project: string;
  status: 'passed' | 'failed' | 'skipped' | 'timedOut' | 'interrupted';
  durationMs: number;
  /** Epoch ms the (last) run of the test started; absent for a test that never started. */
  startedAt?: number;
  /** Skip reason, or the first line of the error. */
  reason?: string;
  error?: string;
  tags: string[];
  /** Why a failed test failed, from its annotations (annotations.ts): its checks, a precondition, or neither (a crash). */
  failedOn?: 'checks' | 'precondition';
}

/** The rows of every `<prefix>*.jsonl` file in `dir` (none when there is no such directory). */
export function readJsonl<T>(dir: string, prefix: string): T[] {
  if (!existsSync(dir)) return [];
  const rows: T[] = [];
  for (const f of readdirSync(dir)
    .filter((n) => n.startsWith(prefix) && n.endsWith('.jsonl'))
    .sort()) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (line.trim()) rows.push(JSON.parse(line) as T);
    }
  }
  return rows;
}

export const readChecks = (out: string) => readJsonl<CheckResult>(join(out, 'raw'), 'checks-');
export const readProbes = (out: string) => readJsonl<ProbeRow>(join(out, 'raw'), 'probes-');
export const readExchanges = (out: string) =>
  readJsonl<ExchangeRow>(join(out, 'raw'), 'exchanges-');
/** Cells of the rule × operation matrix the suite could not reach, with the reason. */
export const readUnreached = (out: string) =>
  readJsonl<{ check: string; column: string; reason: string; project?: string }>(
    join(out, 'raw'),
    'matrix-',
  );
/** Objects the contract suite created on the target (staging hygiene). */
export const readCreated = (out: string) =>
  readJsonl<{ kind: string; id: string }>(join(out, 'raw'), 'created-');

/** Flattens Playwright's JSON report into one row per test × project. */
export function readPlaywrightTests(file: string): TestRow[] {
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites?: any[] };
  const rows: TestRow[] = [];
  const walk = (suite: any, path: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const last = t.results?.[t.results.length - 1];
        const skip = (t.annotations ?? []).find((a: any) => a.type === 'skip');
        const marked = (type: string) =>
          (t.annotations ?? []).some((a: any) => a.type === type) ||
          (last?.annotations ?? []).some((a: any) => a.type === type);
        // A precondition that failed is reported even when checks failed before it.
        const failedOn = marked(PRECONDITION)
          ? 'precondition'
          : marked(FAILED_BY_CHECKS)
            ? 'checks'
            : undefined;
        const status = (
          t.status === 'skipped' ? 'skipped' : (last?.status ?? 'skipped')
        ) as TestRow['status'];
        const error = last?.error?.message as string | undefined;
        rows.push({
          title: [...path, spec.title].filter(Boolean).join(' › '),
          file: spec.file,
          project: t.projectName,
          status: status === 'passed' && t.status === 'unexpected' ? 'failed' : status,
          durationMs: last?.duration ?? 0,
          ...(last?.startTime ? { startedAt: Date.parse(last.startTime) } : {}),
          reason: skip?.description ?? error?.split('\n')[0],
          error,
          tags: spec.tags ?? [],
          ...(failedOn ? { failedOn } : {}),
        });
      }
    }
    for (const s of suite.suites ?? []) walk(s, [...path, s.title]);
  };
  for (const s of report.suites ?? []) walk(s, []);
  return rows;
}
