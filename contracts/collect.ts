/**
 * Reads what the contract suite left in `<out>/raw/` (check results, probes, exchanges, one
 * JSONL file per worker) and Playwright's JSON report, for the summary and the snapshot.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult } from '../core/checks/verdict.ts';
import { addReadStats, emptyReadStats, type ReadStats } from '../core/http/read-tally.ts';
import type { CreatedRecord } from '../core/target/clean-up.ts';
import type { ExchangeRow, ProbeRow } from '../core/snapshot/types.ts';
import { SHOWN_REPRO, shownText } from '../core/shown.ts';
import { FAILED_BY_CHECKS, KEPT_BY_TARGET, PRECONDITION } from './annotations.ts';

export interface TestRow {
  title: string;
  file: string;
  /** The test's line in its file. */
  line?: number;
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
  /** A skipped test the target's own answers kept from its checks (annotations.ts KEPT_BY_TARGET). */
  byTarget?: boolean;
}

/** The rows of every `<prefix>*.jsonl` file in `dir` (none when there is no such directory). */
export function readJsonl<T>(dir: string, prefix: string): T[] {
  if (!existsSync(dir)) return [];
  const rows: T[] = [];
  for (const f of readdirSync(dir)
    .filter((n) => n.startsWith(prefix) && n.endsWith('.jsonl'))
    .sort()) {
    const lines = readFileSync(join(dir, f), 'utf8').split('\n');
    // Every row ends with a newline; a last one without it was cut by a worker killed mid-write
    // (an interrupted run) and is not a row.
    lines.pop();
    for (const line of lines) {
      if (line.trim()) rows.push(JSON.parse(line) as T);
    }
  }
  return rows;
}

export const readChecks = (out: string) => readJsonl<CheckResult>(join(out, 'raw'), 'checks-');
export const readProbes = (out: string) => readJsonl<ProbeRow>(join(out, 'raw'), 'probes-');
export const readExchanges = (out: string) =>
  readJsonl<ExchangeRow>(join(out, 'raw'), 'exchanges-');
/**
 * Objects the contract suite created on the target and what became of each (staging hygiene): a
 * worker writes each as it is created, then what its clean-up did — the last word counts.
 */
export function readCreated(out: string): CreatedRecord[] {
  const last = new Map<string, CreatedRecord>();
  for (const r of readJsonl<CreatedRecord>(join(out, 'raw'), 'created-')) {
    last.set(`${r.kind}\u0000${r.id}`, r);
  }
  return [...last.values()];
}
/** How much of the target's data the contract workers read (core/http/read-tally.ts), summed. */
export const readReads = (out: string): ReadStats =>
  readJsonl<Partial<ReadStats>>(join(out, 'raw'), 'reads-').reduce<ReadStats>(
    (s, r) => addReadStats(s, r),
    emptyReadStats(),
  );
/** Cells of the rule × operation matrix the suite could not reach, with the reason. */
export const readUnreached = (out: string) =>
  readJsonl<{
    check: string;
    column: string;
    reason: string;
    project?: string;
    byTarget?: boolean;
  }>(join(out, 'raw'), 'matrix-');

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
        // A test's error may quote an answer: bounded like every failure (core/shown.ts).
        const message = last?.error?.message as string | undefined;
        const error = message === undefined ? undefined : shownText(message, SHOWN_REPRO);
        rows.push({
          title: [...path, spec.title].filter(Boolean).join(' › '),
          file: spec.file,
          ...(typeof spec.line === 'number' ? { line: spec.line } : {}),
          project: t.projectName,
          status: status === 'passed' && t.status === 'unexpected' ? 'failed' : status,
          durationMs: last?.duration ?? 0,
          ...(last?.startTime ? { startedAt: Date.parse(last.startTime) } : {}),
          reason: skip?.description ?? error?.split('\n')[0],
          error,
          tags: spec.tags ?? [],
          ...(failedOn ? { failedOn } : {}),
          ...(status === 'skipped' && marked(KEPT_BY_TARGET) ? { byTarget: true } : {}),
        });
      }
    }
    for (const s of suite.suites ?? []) walk(s, [...path, s.title]);
  };
  for (const s of report.suites ?? []) walk(s, []);
  return rows;
}
