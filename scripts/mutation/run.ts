/**
 * `npm run mutation`: mutation testing of the reference deployment against the gate, one Stryker
 * run per file of the scope (scripts/mutation/stryker.config.mjs), so that the work is saved
 * after each file (Stryker writes its incremental file only when a run ends) and can be done in
 * chunks: stop it between files, start it again, and it goes on where it stopped. A file whose
 * source equals the one its results were measured on is skipped without starting Stryker.
 * Then it renders docs/mutation-triage.md and the README's score section (render.ts).
 *
 *   npm run mutation                           every file not measured yet, then render
 *   npm run mutation -- server/guard.ts ...    these files only (measured again if changed)
 *   npm run mutation -- --force server/x.ts    run every mutant of x again (after a gate change)
 *   npm run mutation -- --render               render only
 *   npm run mutation -- --untriaged            the survivors the triage does not cover yet
 *
 * MUTATION_CONCURRENCY: mutants at once (default 1; the gate runs two Playwright workers).
 * MUTATION_LOAD=0|1: leave out or run the gate's load step (default: only for the files of the
 * rate limiter, `loadJudges`).
 * Not run in CI: it takes hours (one gate run per mutant).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { render } from './render.ts';
import { scopeFiles } from './scope.ts';
import {
  INCREMENTAL_FILE,
  mutantKey,
  original,
  type Report,
  ROOT,
  readReport,
  readTriage,
  survivors,
  writeTriage,
} from './results.ts';

const CONFIG = 'scripts/mutation/stryker.config.mjs';
const AUDIT = join(ROOT, 'reports', 'mutation', 'audit');
const AUDIT_INDEX = join(ROOT, 'reports', 'mutation', 'audit.json');

function readIncremental(): Report | undefined {
  const file = join(ROOT, INCREMENTAL_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Report) : undefined;
}

/** Measured on this very source, every mutant with a result. */
function upToDate(file: string): boolean {
  const f = readIncremental()?.files[file];
  return (
    !!f &&
    f.source === readFileSync(join(ROOT, file), 'utf8') &&
    f.mutants.every((m) => m.status !== 'Pending')
  );
}

/**
 * The files whose mutants the gate's load step (gate.ts, step 2) can judge differently from its
 * contracts and fuzz: the ones that take tokens or write the rate-limit answer. No other file of
 * the scope reaches the limiter (routes and webhooks neither import nor call it), so for them the
 * step is left out (MUTATION_LOAD=0) unless MUTATION_LOAD says otherwise: it costs 20 s of every
 * surviving mutant, and it can only add kills — leaving it out can lower a score, never raise it.
 */
export function loadJudges(file: string): boolean {
  return (
    file === 'server/guard.ts' ||
    file === 'server/rate-limit-answer.ts' ||
    file.startsWith('server/rate-limit/')
  );
}

function stryker(file: string, args: string[], auditDir: string): Promise<number> {
  const load = process.env.MUTATION_LOAD ?? (loadJudges(file) ? '1' : '0');
  return new Promise((resolve) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'stryker'), ['run', CONFIG, ...args], {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, MUTATION_AUDIT_DIR: auditDir, MUTATION_LOAD: load },
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

interface AuditRecord {
  mutant: string;
  attempts: Array<{ command: string; exit: number; failed: string[]; mismatches: string[] }>;
}

/**
 * Files this run's audit records (named by Stryker's per-run ids) under the mutants' lasting
 * names in reports/mutation/audit.json: what each gate run found, the assumption mismatches of a
 * survivor included, which Stryker does not keep.
 */
function fileAudit(auditDir: string): void {
  const reportFile = join(ROOT, 'reports', 'mutation', 'mutation.json');
  if (!existsSync(reportFile) || !existsSync(auditDir)) return;
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
  const index: Record<string, AuditRecord> = existsSync(AUDIT_INDEX)
    ? JSON.parse(readFileSync(AUDIT_INDEX, 'utf8'))
    : {};
  for (const [file, f] of Object.entries(report.files))
    for (const m of f.mutants) {
      const rec = join(auditDir, `${m.id}.json`);
      if (existsSync(rec)) index[mutantKey(file, m)] = JSON.parse(readFileSync(rec, 'utf8'));
    }
  writeFileSync(AUDIT_INDEX, `${JSON.stringify(index, null, 1)}\n`);
}

/** Each survivor without a triage: where, what, and what the gate said about it (the audit). */
function printUntriaged(): void {
  const report = readReport();
  const triage = readTriage();
  const audit: Record<string, AuditRecord> = existsSync(AUDIT_INDEX)
    ? JSON.parse(readFileSync(AUDIT_INDEX, 'utf8'))
    : {};
  for (const s of survivors(report)) {
    if (triage.survivors[s.key]) continue;
    const source = report.files[s.file]!.source;
    const line = source.split('\n')[s.mutant.location.start.line - 1]!.trim();
    const runs = audit[s.key]?.attempts ?? [];
    const mismatches = [...new Set(runs.flatMap((a) => a.mismatches))].join(', ') || 'none';
    console.log(`${JSON.stringify(s.key)}`);
    console.log(`  ${line}`);
    console.log(`  ${original(source, s.mutant)} → ${s.mutant.replacement}`);
    console.log(`  mismatches: ${runs.length ? mismatches : '(no audit)'}\n`);
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--render')) {
    render(scopeFiles());
    return 0;
  }
  if (argv.includes('--untriaged')) {
    printUntriaged();
    return 0;
  }
  const force = argv.includes('--force');
  const named = argv.filter((a) => !a.startsWith('--'));
  const scope = scopeFiles();
  const unknown = named.filter((f) => !scope.includes(f));
  if (unknown.length) {
    console.error(`not in the mutation scope (${CONFIG}): ${unknown.join(', ')}`);
    console.error(`scope: ${scope.join(', ')}`);
    return 2;
  }
  const files = named.length ? named : scope;
  for (const file of files) {
    if (!force && upToDate(file)) {
      console.log(`mutation: ${file} — up to date`);
      continue;
    }
    console.log(`\nmutation: ${file}`);
    const auditDir = join(AUDIT, file.replace(/[/.]/g, '_'));
    rmSync(auditDir, { recursive: true, force: true });
    mkdirSync(auditDir, { recursive: true });
    const code = await stryker(file, ['--mutate', file, ...(force ? ['--force'] : [])], auditDir);
    fileAudit(auditDir);
    if (code === 0)
      writeTriage({ ...readTriage(), measured: new Date().toISOString().slice(0, 10) });
    if (code !== 0) {
      console.error(`mutation: Stryker exited ${code} on ${file}; its results are not saved`);
      return 2;
    }
  }
  render(scopeFiles());
  console.log(
    `\naudit of each gate run: ${relative(ROOT, AUDIT_INDEX)}, logs under ${relative(ROOT, AUDIT)}/`,
  );
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
