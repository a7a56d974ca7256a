/**
 * The command Stryker runs for each mutant (its command runner; the mutant is the one named by
 * __STRYKER_ACTIVE_MUTANT__, read by the instrumented server/ code of the sandbox this runs in).
 * The mutant is killed when the gate does not pass, as CI would stop the deployment:
 *
 *   1. node bin/harness.mjs run --skip load      contracts, probes, fuzz (≈ 10 s idle)
 *   2. node bin/harness.mjs load --plan team --time-scale 5
 *      only when 1 passed: the load area, at five times the embedded clock (≈ 20 s)
 *
 * Step 2 is the gate's load area made affordable. `harness run` runs it in real time (≈ 95 s),
 * `--skip load` not at all, yet it is the only judge of the 429 path, burst, refill rate,
 * Retry-After and the reset unit (server/rate-limit/, the guard's `tooMany`). Team alone: the
 * limiter does not depend on the plan. Five times, not ten: at ten times on a busy machine the
 * rate verdict failed an unchanged limiter on one run in three (r̂ 121.7/min ± 1.4 % against
 * 120), and Growth's 600 a minute failed even the unchanged deployment. Its verdicts are judged as
 * the gate's load area judges them: only a documented one (limit header, burst, rate, no 429
 * below the rate) fails; an assumed one (Retry-After, the reset unit, the algorithm) is a
 * mismatch, as in `harness run`. MUTATION_LOAD=0: no step 2.
 *
 * A documented failure of step 1 (exit 1) kills at once: those checks do not depend on timing —
 * unless the only one is `harness.test-completed` (a contract test that did not finish: it timed
 * out on a busy machine as readily as on a broken server). That, an ERROR (exit 2: the run could
 * not finish — the mutant broke the server so that it cannot start or stops answering, or the
 * machine was too busy) and a documented load failure (timing on a shared machine) are tried once
 * more, and kill only when the second try does not pass either. Both tries are in the audit.
 *
 * The gate's console goes to a log file (MUTATION_AUDIT_DIR/<mutant>.log), not to Stryker:
 * Stryker keeps what the command prints as the kill's reason in its report and its incremental
 * file, so this prints one line — the verdict and the checks that failed. Of a survivor Stryker
 * keeps nothing, so every run also writes an audit record (<mutant>.json; `none.json` for
 * Stryker's dry run on the unmutated code, the baseline): each try's failed checks, errors and
 * assumption mismatches, with what each mismatch received. run.ts files the checks of it in
 * docs/mutation/gate.json, from which the "noticed" score is counted (scores.ts).
 *
 * Usage (in a Stryker sandbox, or in the repository for a hand check of one mutant):
 *   tsx scripts/mutation/gate.ts
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { loadFailures } from '../../load/failures.ts';
import type { LoadResult } from '../../load/lib/result.ts';
import { TIMING_CHECKS } from './scores.ts';

const MUTANT = process.env.__STRYKER_ACTIVE_MUTANT__ ?? 'none';
const AUDIT_DIR = resolve(process.env.MUTATION_AUDIT_DIR ?? 'reports/mutation/audit');
/** The gate's own time limit, well under Stryker's timeout, so a slow run ends with a verdict. */
const MAX_SECONDS = process.env.MUTATION_GATE_MAX_SECONDS ?? '240';
const withLoad = process.env.MUTATION_LOAD !== '0';

interface Attempt {
  command: string;
  exit: number;
  ms: number;
  /** Documented checks (or load verdicts) that failed: what killed the mutant. */
  failed: string[];
  /** Assumed checks that failed: reported as mismatches, not fatal. */
  mismatches: string[];
  /** What each mismatch received and the assumption it names, for the triage. */
  mismatchDetails?: MismatchDetail[];
  /** Areas that could not run to their end, with why. */
  errors: string[];
}

function run(args: string[], log: string): Promise<{ exit: number; ms: number }> {
  const started = Date.now();
  const fd = openSync(log, 'a');
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', fd, fd], env: process.env });
    const finish = (exit: number) => {
      closeSync(fd);
      done({ exit, ms: Date.now() - started });
    };
    child.on('exit', (code, signal) => finish(code ?? (signal ? 2 : 0)));
    child.on('error', () => finish(127));
  });
}

interface MismatchDetail {
  check: string;
  rule: string;
  received: string;
}

/** At most this many details a run, each text cut: the audit is read by a person. */
const DETAILS = 20;
const cut = (s: unknown) => String(s ?? '').slice(0, 300);

interface CheckCount {
  name: string;
  provenance: string;
  failed: number;
}
interface AreaOut {
  verdict: string;
  error?: string;
  documentedFailures?: Array<{ check: string }>;
  assumptionMismatches?: Array<{ check: string; rule?: string; received?: string }>;
}

/** What `harness run` found, from its summary.json. */
function readRun(
  out: string,
): Pick<Attempt, 'failed' | 'mismatches' | 'mismatchDetails' | 'errors'> {
  const file = join(out, 'summary.json');
  if (!existsSync(file)) return { failed: [], mismatches: [], errors: ['no summary.json'] };
  const s = JSON.parse(readFileSync(file, 'utf8')) as {
    checks?: CheckCount[];
    areas?: Record<string, AreaOut>;
  };
  const failed = new Set<string>();
  const mismatches = new Set<string>();
  for (const c of s.checks ?? [])
    if (c.failed > 0) (c.provenance === 'documented' ? failed : mismatches).add(c.name);
  const errors: string[] = [];
  const details: MismatchDetail[] = [];
  for (const [name, a] of Object.entries(s.areas ?? {})) {
    for (const f of a.documentedFailures ?? []) failed.add(f.check);
    for (const f of a.assumptionMismatches ?? []) {
      mismatches.add(f.check);
      details.push({ check: f.check, rule: cut(f.rule), received: cut(f.received) });
    }
    if (a.verdict === 'error') errors.push(`${name}: ${a.error ?? 'error'}`);
  }
  return {
    failed: [...failed].sort(),
    mismatches: [...mismatches].sort(),
    mismatchDetails: details.slice(0, DETAILS),
    errors,
  };
}

/**
 * What `harness load` found, judged as the gate's load area judges it (load/failures.ts): a
 * failed documented verdict fails, a failed assumed or observed one — or a documented one an
 * assumed model decided — is a mismatch, an inconclusive one neither. `harness load` alone exits
 * 1 on any failed verdict, stricter than the gate, so its exit status is not the verdict.
 */
function readLoad(
  out: string,
): Pick<Attempt, 'exit' | 'failed' | 'mismatches' | 'mismatchDetails' | 'errors'> {
  const file = join(out, 'load-team.json');
  if (!existsSync(file))
    return { exit: 2, failed: [], mismatches: [], errors: ['load: no result'] };
  const found = loadFailures(JSON.parse(readFileSync(file, 'utf8')) as LoadResult);
  const failed = found.filter((f) => f.provenance === 'documented').map((f) => f.check);
  const assumed = found.filter((f) => f.provenance !== 'documented');
  const mismatches = assumed.map((f) => f.check);
  const mismatchDetails = assumed
    .slice(0, DETAILS)
    .map((f) => ({ check: f.check, rule: cut(f.rule), received: cut(f.received) }));
  return { exit: failed.length ? 1 : 0, failed, mismatches, mismatchDetails, errors: [] };
}

const GATE = ['bin/harness.mjs', 'run', '--skip', 'load'];
const LOAD = ['bin/harness.mjs', 'load', '--plan', 'team', '--time-scale', '5'];

let tries = 0;
/**
 * A fresh report folder for each try: the harness empties its folder at the start, and a folder
 * the previous run's last writes were still filling once failed to empty (ENOTEMPTY), lost its
 * mark file, and made every later run refuse it — killing mutants for nothing.
 */
function freshOut(kind: string): string {
  return join('reports', 'mutation', `${kind}-${MUTANT}-${++tries}`);
}

/** Best effort: a folder that will not go stays in the sandbox, which Stryker deletes. */
function drop(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch {}
}

async function gate(log: string): Promise<Attempt> {
  const out = freshOut('gate');
  const r = await run([...GATE, '--out', out, '--max-seconds', MAX_SECONDS], log);
  const a: Attempt = { command: GATE.slice(1).join(' '), exit: r.exit, ms: r.ms, ...readRun(out) };
  drop(out);
  return a;
}

async function load(log: string): Promise<Attempt> {
  const out = freshOut('load');
  const r = await run([...LOAD, '--out', out], log);
  const found = readLoad(out);
  drop(out);
  return { command: LOAD.slice(1).join(' '), ms: r.ms, ...found };
}

/** Not a sure kill: an ERROR, or a FAIL that only timing may explain. */
function unsure(a: Attempt): boolean {
  if (a.exit === 0) return false;
  if (a.exit === 1) return !a.failed.some((c) => !TIMING_CHECKS.has(c));
  return true;
}

function line(a: Attempt): string {
  const verdict = a.exit === 0 ? 'PASS' : a.exit === 1 ? 'FAIL' : 'ERROR';
  const parts = [`${verdict} (exit ${a.exit}, ${(a.ms / 1000).toFixed(0)} s)`];
  if (a.failed.length) parts.push(`failed: ${a.failed.join(', ')}`);
  if (a.errors.length) parts.push(`error: ${a.errors.join('; ')}`.slice(0, 300));
  if (a.mismatches.length) parts.push(`mismatches: ${a.mismatches.join(', ')}`);
  return parts.join(' · ');
}

/**
 * The verdict this gate already gave this mutant, when a run of the same file on the same code
 * was stopped before Stryker saved it: run.ts keeps that run's audit folder, stamped with the
 * gate's fingerprint (MUTATION_GATE), and Stryker numbers the mutants of unchanged code the same
 * way each time. Stryker is told the recorded verdict again instead of waiting for a new gate run.
 */
function recorded(): { exit: number; said: string } | undefined {
  const gate = process.env.MUTATION_GATE;
  const stamp = join(AUDIT_DIR, 'gate.txt');
  const file = join(AUDIT_DIR, `${MUTANT}.json`);
  if (!gate || !existsSync(stamp) || !existsSync(file)) return undefined;
  if (readFileSync(stamp, 'utf8').trim() !== gate) return undefined;
  const r = JSON.parse(readFileSync(file, 'utf8')) as { exit?: unknown; said?: unknown };
  return typeof r.exit === 'number' && typeof r.said === 'string'
    ? { exit: r.exit, said: r.said }
    : undefined;
}

async function main(): Promise<number> {
  mkdirSync(AUDIT_DIR, { recursive: true });
  const again = recorded();
  if (again) {
    process.stdout.write(again.said);
    return again.exit;
  }
  const log = join(AUDIT_DIR, `${MUTANT}.log`);
  writeFileSync(log, '');
  const attempts = [await gate(log)];
  if (unsure(attempts[0]!)) attempts.push(await gate(log));
  if (withLoad && attempts[attempts.length - 1]!.exit === 0) {
    attempts.push(await load(log));
    if (attempts[attempts.length - 1]!.exit !== 0) attempts.push(await load(log));
  }
  const { exit } = attempts[attempts.length - 1]!;
  const said = `${attempts.map(line).join(' | then ')}\n`;
  writeFileSync(
    join(AUDIT_DIR, `${MUTANT}.json`),
    `${JSON.stringify({ mutant: MUTANT, exit, said, attempts }, null, 1)}\n`,
  );
  process.stdout.write(said);
  return exit;
}

process.exitCode = await main();
