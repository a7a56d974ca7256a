/**
 * The mutation run's results as the committed files hold them: Stryker's incremental file
 * (docs/mutation/stryker-incremental.json, the mutation-testing-report-schema), what the gate
 * found on each mutant and how each file was measured (docs/mutation/gate.json), the hand triage
 * of the survivors (docs/mutation/triage.json, by the mutant keys of keys.ts), and what is
 * rendered from them (docs/mutation-triage.md, the README's "Mutation score" section). Read by the
 * run script, the renderer and test/repo/mutation-triage.test.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mutantKeys } from './keys.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const INCREMENTAL_FILE = 'docs/mutation/stryker-incremental.json';
export const TRIAGE_FILE = 'docs/mutation/triage.json';
export const TRIAGE_MD = 'docs/mutation-triage.md';
export const GATE_FILE = 'docs/mutation/gate.json';

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
   * `assumed`: an assumed behaviour (`mismatch`: whether the run reported an assumption mismatch
   * naming the behaviour the mutant changed);
   * `equivalent`: nothing any client — the admin stand-in included — can tell apart (`why`).
   */
  verdict: 'gap' | 'assumed' | 'equivalent';
  why: string;
  check?: string;
  mismatch?: boolean;
}

/** The hash a measured source is noted by (FileMeasure.source). */
export function sourceHash(source: string): string {
  return createHash('sha1').update(source).digest('hex');
}

export function readReport(root = ROOT): Report {
  return JSON.parse(readFileSync(join(root, INCREMENTAL_FILE), 'utf8')) as Report;
}

export function writeReport(report: Report, root = ROOT): void {
  writeFileSync(join(root, INCREMENTAL_FILE), `${JSON.stringify(report, null, 2)}\n`);
}

/** docs/mutation/triage.json: when the results were measured, and each survivor's triage. */
export interface TriageFile {
  /** The day of the last Stryker run (YYYY-MM-DD), set by the run script. */
  measured: string;
  /** By mutant key (keys.ts). */
  survivors: Record<string, Triage>;
  /**
   * Triages whose mutant the results no longer hold — its code changed, or it is gone — kept
   * with their verdict for whoever triages the new survivors of that code: triage again, never
   * carried over by guess. Emptied by hand.
   */
  retriage?: Record<string, Triage>;
}

export function readTriage(root = ROOT): TriageFile {
  const file = join(root, TRIAGE_FILE);
  if (!existsSync(file)) return { measured: 'never', survivors: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as TriageFile;
}

export function writeTriage(t: TriageFile, root = ROOT): void {
  const { retriage, ...rest } = t;
  const out = retriage && Object.keys(retriage).length ? { ...rest, retriage } : rest;
  writeFileSync(join(root, TRIAGE_FILE), `${JSON.stringify(out, null, 2)}\n`);
}

/** What one gate run (scripts/mutation/gate.ts) found: the checks, as its summary files them. */
export interface GateFindings {
  /** Documented checks (or load verdicts) that failed on the try that decided. */
  failed: string[];
  /** Assumption mismatches the gate reported, on any of its tries. */
  mismatches: string[];
  /** Areas that could not run to their end, on the try that decided. */
  errors?: string[];
}

/** How and on what one file was measured (run.ts writes it when a file's Stryker run ends). */
export interface FileMeasure {
  /** The day (YYYY-MM-DD). */
  date: string;
  /** The gate's fingerprint (run.ts `gateFingerprint`): the same for files measured on one code. */
  gate: string;
  /** sha1 of the source measured: a record Stryker remapped onto other code does not match it. */
  source: string;
  /** Whether every mutant was run (--force), or Stryker reused results of earlier gates. */
  forced: boolean;
  /** The gate on the unmutated code (Stryker's dry run): mismatches it reports are no mutant's. */
  baseline?: GateFindings;
}

/** docs/mutation/gate.json: what the gate found on each mutant, which Stryker keeps only for kills. */
export interface GateFile {
  files: Record<string, FileMeasure>;
  /** By mutant key: the findings of the gate runs of that mutant. */
  mutants: Record<string, GateFindings>;
}

export function readGate(root = ROOT): GateFile {
  const file = join(root, GATE_FILE);
  if (!existsSync(file)) return { files: {}, mutants: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as GateFile;
}

export function writeGate(g: GateFile, root = ROOT): void {
  const sorted = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  const out = { files: sorted(g.files), mutants: sorted(g.mutants) };
  writeFileSync(join(root, GATE_FILE), `${JSON.stringify(out, null, 1)}\n`);
}

export interface Keyed {
  file: string;
  mutant: MutantResult;
  key: string;
}

const keyCache = new WeakMap<ReportFile, string[]>();

/** Every mutant of the results with its key, file by file, each file's in source order. */
export function keyed(report: Report): Keyed[] {
  const out: Keyed[] = [];
  for (const [file, f] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
    let keys = keyCache.get(f);
    if (!keys) {
      keys = mutantKeys(file, f.source, f.mutants);
      keyCache.set(f, keys);
    }
    const mine = f.mutants.map((mutant, i) => ({ file, mutant, key: keys[i]! }));
    out.push(...mine.sort((a, b) => byPosition(a.mutant, b.mutant)));
  }
  return out;
}

export const isSurvivor = (m: MutantResult) => m.status === 'Survived' || m.status === 'NoCoverage';
export const isKilled = (m: MutantResult) => m.status === 'Killed' || m.status === 'Timeout';

/** Survived and NoCoverage mutants: both passed the gate. */
export function survivors(report: Report): Keyed[] {
  return keyed(report).filter((k) => isSurvivor(k.mutant));
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
