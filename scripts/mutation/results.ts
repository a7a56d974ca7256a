/**
 * The mutation run's results as the committed files hold them: Stryker's incremental file
 * (docs/mutation/stryker-incremental.json, the mutation-testing-report-schema), the hand triage
 * of its survivors (docs/mutation/triage.json), and what is rendered from both
 * (docs/mutation-triage.md, the README's "Mutation score" section). Read by the run script, the
 * renderer and test/repo/mutation-triage.test.ts.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
export const INCREMENTAL_FILE = 'docs/mutation/stryker-incremental.json';
export const TRIAGE_FILE = 'docs/mutation/triage.json';
export const TRIAGE_MD = 'docs/mutation-triage.md';

export type MutantStatus =
  | 'Killed'
  | 'Survived'
  | 'NoCoverage'
  | 'CompileError'
  | 'RuntimeError'
  | 'Timeout'
  | 'Ignored'
  | 'Pending';

export interface Position {
  line: number;
  column: number;
}

export interface MutantResult {
  id: string;
  mutatorName: string;
  replacement?: string;
  location: { start: Position; end: Position };
  status: MutantStatus;
  statusReason?: string;
}

export interface ReportFile {
  source: string;
  mutants: MutantResult[];
}

export interface Report {
  files: Record<string, ReportFile>;
}

/** A survivor's triage: what the gate missed, what it only warns about, or no fault at all. */
export interface Triage {
  /**
   * `gap`: a documented behaviour the gate missed (`check` says which check should catch it);
   * `assumed`: an assumed behaviour (`mismatch` says whether the run reported it);
   * `equivalent`: no behaviour a client can see changes (`why`).
   */
  verdict: 'gap' | 'assumed' | 'equivalent';
  why: string;
  check?: string;
  mismatch?: boolean;
}

export function readReport(root = ROOT): Report {
  return JSON.parse(readFileSync(join(root, INCREMENTAL_FILE), 'utf8')) as Report;
}

/** docs/mutation/triage.json: when the results were measured, and each survivor's triage. */
export interface TriageFile {
  /** The day of the last Stryker run (YYYY-MM-DD), set by the run script. */
  measured: string;
  /** By mutantKey. */
  survivors: Record<string, Triage>;
}

export function readTriage(root = ROOT): TriageFile {
  const file = join(root, TRIAGE_FILE);
  if (!existsSync(file)) return { measured: 'never', survivors: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as TriageFile;
}

export function writeTriage(t: TriageFile, root = ROOT): void {
  writeFileSync(join(root, TRIAGE_FILE), `${JSON.stringify(t, null, 2)}\n`);
}

/** The text a mutant replaces, from the file's source. */
export function original(source: string, m: MutantResult): string {
  const lines = source.split('\n');
  const { start, end } = m.location;
  if (start.line === end.line)
    return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
  const first = lines[start.line - 1]!.slice(start.column - 1);
  const last = lines[end.line - 1]!.slice(0, end.column - 1);
  return [first, ...lines.slice(start.line, end.line - 1), last].join('\n');
}

/**
 * A mutant's name across runs: file, span, mutator and replacement — what Stryker itself matches
 * an old result by (its ids are per run; `a || b` and its `a` start at the same place, so the
 * span's end is part of it). A survivor whose line moves needs its triage moved too; the triage
 * test names it.
 */
export function mutantKey(file: string, m: MutantResult): string {
  const r = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80);
  const { start, end } = m.location;
  return `${file}:${start.line}:${start.column}-${end.line}:${end.column} ${m.mutatorName} → ${r}`;
}

/** Survived and NoCoverage mutants: both passed the gate. */
export function survivors(
  report: Report,
): Array<{ file: string; mutant: MutantResult; key: string }> {
  const out: Array<{ file: string; mutant: MutantResult; key: string }> = [];
  for (const [file, f] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b)))
    for (const m of [...f.mutants].sort(byPosition))
      if (m.status === 'Survived' || m.status === 'NoCoverage')
        out.push({ file, mutant: m, key: mutantKey(file, m) });
  return out;
}

export function byPosition(a: MutantResult, b: MutantResult): number {
  return (
    a.location.start.line - b.location.start.line ||
    a.location.start.column - b.location.start.column ||
    a.mutatorName.localeCompare(b.mutatorName) ||
    (a.replacement ?? '').localeCompare(b.replacement ?? '')
  );
}

export interface Counts {
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  compileError: number;
  runtimeError: number;
  ignored: number;
  pending: number;
}

export function emptyCounts(): Counts {
  return {
    killed: 0,
    timeout: 0,
    survived: 0,
    noCoverage: 0,
    compileError: 0,
    runtimeError: 0,
    ignored: 0,
    pending: 0,
  };
}

const FIELD: Record<MutantStatus, keyof Counts> = {
  Killed: 'killed',
  Timeout: 'timeout',
  Survived: 'survived',
  NoCoverage: 'noCoverage',
  CompileError: 'compileError',
  RuntimeError: 'runtimeError',
  Ignored: 'ignored',
  Pending: 'pending',
};

export function count(mutants: readonly MutantResult[], into = emptyCounts()): Counts {
  for (const m of mutants) into[FIELD[m.status]]++;
  return into;
}

/** Stryker's mutation score: detected / (detected + undetected); invalid and ignored left out. */
export function score(c: Counts): number | undefined {
  const detected = c.killed + c.timeout;
  const valid = detected + c.survived + c.noCoverage;
  return valid === 0 ? undefined : (100 * detected) / valid;
}
