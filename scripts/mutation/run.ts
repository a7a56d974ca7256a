/**
 * `npm run mutation`: mutation testing of the reference deployment against the gate, one Stryker
 * run per file of the scope (scripts/mutation/stryker.config.mjs), so that the work is saved
 * after each file (Stryker writes its incremental file only when a run ends) and can be done in
 * chunks: stop it, start it again, and it goes on where it stopped — within a file too: the
 * verdicts the gate already gave on the same code are given to Stryker again (gate.ts `recorded`).
 *
 *   npm run mutation -- --all                  THE measurement: every file of the scope against one
 *                                              gate, every mutant run (resumable: a file already
 *                                              measured so on today's code is skipped)
 *   npm run mutation                           every file not measured on its present source
 *                                              (results of unchanged mutants reused)
 *   npm run mutation -- server/guard.ts ...    these files only (measured again if changed)
 *   npm run mutation -- --force server/x.ts    run every mutant of x again
 *   npm run mutation -- --render               render only
 *   npm run mutation -- --untriaged            the survivors the triage does not cover yet
 *   npm run mutation -- --plan                 what --all would run: mutants per file (no gate run)
 *   npm run mutation -- --all --minutes=120    start no file after 120 minutes (a time box:
 *                                              what is measured is saved in docs/mutation/)
 *
 * After each file it files what the gate found on each mutant (docs/mutation/gate.json: Stryker
 * keeps nothing of a survivor's run) and how the file was measured — the gate's fingerprint, the
 * source's hash — takes only that file's record from Stryker's incremental file (Stryker remaps
 * the other files' records onto their present code, dropping what changed and adding nothing),
 * and reconciles the file's triage: an entry whose mutant was killed goes, one whose mutant is no
 * longer there moves to `retriage` (triage again), one whose function moved to another file
 * follows it.
 *
 * MUTATION_CONCURRENCY: mutants at once (default 1; the gate runs two Playwright workers).
 * MUTATION_LOAD=0|1: leave out or run the gate's load step (default: only for the files that feed
 * the rate limiter, `loadJudges`). Not run in CI: it takes hours (one gate run per mutant).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { original } from './keys.ts';
import { reconcile } from './reconcile.ts';
import { render } from './render.ts';
import {
  type GateFindings,
  keyed,
  type Report,
  ROOT,
  readGate,
  readReport,
  readTriage,
  sourceHash,
  survivors,
  writeGate,
  writeReport,
  writeTriage,
} from './results.ts';
import { scopeFiles } from './scope.ts';

const CONFIG = 'scripts/mutation/stryker.config.mjs';
const AUDIT = join(ROOT, 'reports', 'mutation', 'audit');

/**
 * The files whose mutants the gate's load step (gate.ts, step 2) can judge differently from its
 * contracts and fuzz: the ones that take tokens, set what a bucket holds, keep its time or write
 * the rate-limit answer. No other file of the scope reaches the limiter (routes and webhooks
 * neither import nor call it), so for them the step is left out (MUTATION_LOAD=0) unless
 * MUTATION_LOAD says otherwise: it costs 20 s of every surviving mutant, and it can only add
 * kills — leaving it out can lower a score, never raise it.
 */
export function loadJudges(file: string): boolean {
  return (
    [
      'server/app.ts',
      'server/clock.ts',
      'server/guard.ts',
      'server/plans.ts',
      'server/rate-limit-answer.ts',
      'server/transport-errors.ts',
    ].includes(file) || file.startsWith('server/rate-limit/')
  );
}

/**
 * What the gate runs, as one hash: the code of the harness and of the deployment, the Stryker
 * config and gate.ts with what it imports — every file the sandbox's gate reads — not the
 * results, docs or tests. Files measured under one fingerprint
 * were measured against one gate.
 */
export function gateFingerprint(root = ROOT): string {
  const GATE_CODE =
    /^(bin|compat|contracts|core|examples|fuzz|load|report|reports\/baselines|run|server|spec)\/|^(package(-lock)?\.json|tsconfig\.json|playwright\.config\.ts)$|^scripts\/mutation\/(gate|scores|results|keys)\.ts$|^scripts\/mutation\/(stryker\.config|fault-switch-ignorer)\.mjs$/;
  const ls = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (ls.status !== 0) throw new Error(`git ls-files: ${ls.stderr}`);
  const hash = createHash('sha1');
  for (const f of ls.stdout
    .split('\0')
    .filter((f) => GATE_CODE.test(f) && !f.endsWith('.md'))
    .sort()) {
    if (!existsSync(join(root, f))) continue;
    hash
      .update(`${f}\0`)
      .update(readFileSync(join(root, f)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 12);
}

/** Measured on this very source, every mutant with a result — and, for --all, on this gate. */
function upToDate(file: string, gate?: string): boolean {
  const m = readGate().files[file];
  const source = readFileSync(join(ROOT, file), 'utf8');
  const rec = readReport().files[file];
  return (
    !!m &&
    !!rec &&
    m.source === sourceHash(source) &&
    rec.source === source &&
    rec.mutants.every((x) => x.status !== 'Pending') &&
    (gate === undefined || (m.gate === gate && m.forced))
  );
}

function stryker(file: string, args: string[], auditDir: string, gate: string): Promise<number> {
  const load = process.env.MUTATION_LOAD ?? (loadJudges(file) ? '1' : '0');
  return new Promise((resolve) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', 'stryker'), ['run', CONFIG, ...args], {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        MUTATION_AUDIT_DIR: auditDir,
        MUTATION_LOAD: load,
        MUTATION_GATE: gate,
      },
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

interface AuditRecord {
  mutant: string;
  attempts: Array<{
    exit: number;
    failed: string[];
    mismatches: string[];
    mismatchDetails?: Array<{ check: string; rule: string; received: string }>;
    errors: string[];
  }>;
}

/** Every audit record by mutant key (not committed): what the triage reads beside the code. */
const AUDIT_INDEX = join(ROOT, 'reports', 'mutation', 'audit.json');

function readAuditIndex(): Record<string, AuditRecord> {
  return existsSync(AUDIT_INDEX) ? JSON.parse(readFileSync(AUDIT_INDEX, 'utf8')) : {};
}

/** What a gate run's audit record says, as gate.json keeps it. */
function findings(rec: AuditRecord): GateFindings {
  const last = rec.attempts[rec.attempts.length - 1];
  const mismatches = [...new Set(rec.attempts.flatMap((a) => a.mismatches))].sort();
  return {
    failed: last?.failed ?? [],
    mismatches,
    ...(last?.errors.length ? { errors: last.errors } : {}),
  };
}

function readAudit(dir: string, id: string): AuditRecord | undefined {
  const f = join(dir, `${id}.json`);
  return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as AuditRecord) : undefined;
}

/**
 * After `file`'s Stryker run: keeps only its record from Stryker's incremental file (the others
 * as they were), files the gate's findings and the measure, reconciles the triage.
 */
function keepResults(
  file: string,
  before: Report | undefined,
  auditDir: string,
  forced: boolean,
  gate: string,
): void {
  const after = readReport();
  const rec = after.files[file];
  if (!rec) throw new Error(`Stryker's results hold no record of ${file}`);
  const report: Report = { ...(before ?? after), files: { ...(before?.files ?? {}), [file]: rec } };
  writeReport(report);

  const g = readGate();
  const index = readAuditIndex();
  const mine = keyed({ files: { [file]: rec } });
  const keys = new Set(mine.map((k) => k.key));
  for (const k of Object.keys(g.mutants))
    if (k.startsWith(`${file} · `) && !keys.has(k)) delete g.mutants[k];
  for (const k of mine) {
    const a = readAudit(auditDir, k.mutant.id);
    if (a) {
      g.mutants[k.key] = findings(a);
      index[k.key] = a;
    }
  }
  writeFileSync(AUDIT_INDEX, `${JSON.stringify(index, null, 1)}\n`);
  const baseline = readAudit(auditDir, 'none');
  g.files[file] = {
    date: new Date().toISOString().slice(0, 10),
    gate,
    source: sourceHash(rec.source),
    forced,
    ...(baseline ? { baseline: findings(baseline) } : {}),
  };
  writeGate(g);

  writeTriage(reconcile(readTriage(), report, file, (line) => console.log(`mutation: ${line}`)));
}

/**
 * Each survivor without a triage: where, what, and the mismatches the gate reported on it beyond
 * its baseline, with what each received (from the audit of the run that measured it, when it
 * ran on this machine).
 */
function printUntriaged(): void {
  const report = readReport();
  const triage = readTriage();
  const gate = readGate();
  const index = readAuditIndex();
  for (const s of survivors(report)) {
    if (triage.survivors[s.key]) continue;
    const source = report.files[s.file]!.source;
    const line = source.split('\n')[s.mutant.location.start.line - 1]!.trim();
    const found = gate.mutants[s.key];
    const baseline = new Set(gate.files[s.file]?.baseline?.mismatches ?? []);
    const own = found?.mismatches.filter((c) => !baseline.has(c)) ?? [];
    console.log(`${JSON.stringify(s.key)}`);
    console.log(`  line ${s.mutant.location.start.line}: ${line}`);
    console.log(`  ${original(source, s.mutant)} → ${s.mutant.replacement}`);
    console.log(`  mismatches: ${found ? own.join(', ') || 'none' : '(no record)'}`);
    const details = (index[s.key]?.attempts ?? []).flatMap((a) => a.mismatchDetails ?? []);
    for (const d of details.filter((x) => own.includes(x.check)))
      console.log(`    ${d.check}: ${d.received.replace(/\s+/g, ' ').slice(0, 200)}`);
    console.log('');
  }
}

/**
 * What --all would run, without running the gate: the mutants of each file's present code
 * (Stryker's own instrumenter and the fault-switch ignorer), and how many of them the record
 * lacks — new code, never measured.
 */
async function plan(files: readonly string[]): Promise<void> {
  const { Instrumenter } = await import('@stryker-mutator/instrumenter');
  const ignorer = './fault-switch-ignorer.mjs';
  const { strykerPlugins } = await import(ignorer);
  const quiet = () => {};
  const logger = {
    isTraceEnabled: () => false,
    isDebugEnabled: () => false,
    isInfoEnabled: () => false,
    isWarnEnabled: () => false,
    isErrorEnabled: () => false,
    isFatalEnabled: () => false,
    trace: quiet,
    debug: quiet,
    info: quiet,
    warn: quiet,
    error: quiet,
    fatal: quiet,
  };
  const report = readReport();
  const triage = readTriage();
  const gate = gateFingerprint();
  let total = 0;
  console.log(`gate ${gate}\n`);
  console.log(
    'file | mutants | ignored | to run (before the type check) | not in the record | measured on this gate',
  );
  for (const f of files) {
    const content = readFileSync(join(ROOT, f), 'utf8');
    const r = await new Instrumenter(logger as never).instrument(
      [{ name: f, content, mutate: true }],
      { plugins: null, excludedMutations: [], ignorers: [strykerPlugins[0]!.value as never] },
    );
    const mutants = r.mutants.map((m) => ({
      ...m,
      location: {
        start: { line: m.location.start.line + 1, column: m.location.start.column + 1 },
        end: { line: m.location.end.line + 1, column: m.location.end.column + 1 },
      },
    }));
    const now = keyed({ files: { [f]: { source: content, mutants: mutants as never } } });
    const ignored = r.mutants.filter((m) => m.status === 'Ignored').length;
    const rec = report.files[f];
    const recorded = new Set(rec ? keyed({ files: { [f]: rec } }).map((k) => k.key) : []);
    const fresh = now.filter((k) => !recorded.has(k.key)).length;
    const toRun = r.mutants.length - ignored;
    total += toRun;
    console.log(
      `${f} | ${r.mutants.length} | ${ignored} | ${toRun} | ${fresh} | ${upToDate(f, gate) ? 'yes' : 'no'}`,
    );
    const nowKeys = new Set(now.map((k) => k.key));
    for (const k of Object.keys(triage.survivors))
      if (k.startsWith(`${f} · `) && !nowKeys.has(k))
        console.log(`  triaged, not a mutant of the present code: ${k}`);
  }
  console.log(`\n${total} mutants to type-check and run`);
}

async function main(argv: string[]): Promise<number> {
  const scope = scopeFiles();
  if (argv.includes('--render')) {
    render(scope);
    return 0;
  }
  if (argv.includes('--untriaged')) {
    printUntriaged();
    return 0;
  }
  const all = argv.includes('--all');
  const named = argv.filter((a) => !a.startsWith('--'));
  if (argv.some((a) => a.startsWith('--minutes') && !/^--minutes=\d+$/.test(a))) {
    console.error('--minutes=N: whole minutes');
    return 2;
  }
  const unknown = named.filter((f) => !scope.includes(f));
  if (unknown.length) {
    console.error(`not in the mutation scope (${CONFIG}): ${unknown.join(', ')}`);
    console.error(`scope: ${scope.join(', ')}`);
    return 2;
  }
  const files = named.length ? named : scope;
  if (argv.includes('--plan')) {
    await plan(files);
    return 0;
  }
  const force = all || argv.includes('--force');
  const gate = gateFingerprint();
  const started = Date.now();
  const minutes = Number(argv.find((a) => a.startsWith('--minutes='))?.slice(10) ?? Infinity);
  for (const f of files) {
    if (!argv.includes('--force') && upToDate(f, all ? gate : undefined)) {
      console.log(`mutation: ${f} — up to date`);
      continue;
    }
    if (Date.now() - started > minutes * 60_000) {
      console.log(`\nmutation: --minutes=${minutes} spent; run it again to go on from ${f}`);
      break;
    }
    console.log(
      `\nmutation: ${f} (gate ${gate}, ${Math.round((Date.now() - started) / 60_000)} min so far)`,
    );
    const auditDir = join(AUDIT, f.replace(/[/.]/g, '_'));
    const stamp = join(auditDir, 'gate.txt');
    if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === gate) {
      const done = readdirSync(auditDir).filter((x) => /^\d+\.json$/.test(x)).length;
      console.log(`mutation: ${f} goes on where it stopped (${done} mutants judged on this gate)`);
    } else {
      rmSync(auditDir, { recursive: true, force: true });
      mkdirSync(auditDir, { recursive: true });
      writeFileSync(stamp, `${gate}\n`);
    }
    const before = existsSync(join(ROOT, 'docs/mutation/stryker-incremental.json'))
      ? readReport()
      : undefined;
    const code = await stryker(f, ['--mutate', f, ...(force ? ['--force'] : [])], auditDir, gate);
    if (code !== 0) {
      if (before) writeReport(before);
      console.error(`mutation: Stryker exited ${code} on ${f}; its results are not saved`);
      return 2;
    }
    keepResults(f, before, auditDir, force, gate);
    // Saved: a later run of this file runs its mutants again.
    rmSync(stamp, { force: true });
    if (gateFingerprint() !== gate) {
      console.error(
        'mutation: the code changed during the run; the files after this one would be measured on another gate. Stopped.',
      );
      return 2;
    }
  }
  render(scope);
  console.log(
    `\nlogs of each gate run under ${relative(ROOT, AUDIT)}/ (${readdirSync(AUDIT).length} files' folders)`,
  );
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
