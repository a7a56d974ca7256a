/**
 * What a gate run costs a shared key: `harness run --skip load` against the embedded reference
 * deployment, as a separate process, read back from its summary.json — requests per area and in
 * total, the documented rules it covered (documented checks with at least one evaluation) and
 * requests per documented rule covered; with --team, the same against a `harness serve` Team key
 * (the gate-sized fuzz, the reserve, the refill's wait).
 *
 * Side by side, in the same bench run and on the same machine: the same command of an earlier
 * revision (`--against REV`; default the merge base of HEAD and `main`, the code this branch
 * started from — there is no release tag), unpacked with `git archive` into a temporary
 * directory (nothing in the repository changes) and run with this checkout's node_modules. Prints,
 * asserts nothing.
 *
 * Run: npm run bench -- gate-cost [--against REV | --no-against] [--team]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { spawnServe } from '../run/serve-process.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    'no-against': { type: 'boolean', default: false },
    team: { type: 'boolean', default: false },
  },
});

interface SummaryView {
  durationMs: number;
  exitCode: number;
  verdict: string;
  requests?: { total: number; byArea: Record<string, number>; waitedS?: number };
  checks: Array<{ name: string; provenance: string; passed: number; failed: number }>;
}

interface Measured {
  label: string;
  summary?: SummaryView;
  error?: string;
}

/** `harness run --skip load` of the checkout at `dir`, its summary. */
function gateRun(dir: string, label: string, env: NodeJS.ProcessEnv = {}): Promise<Measured> {
  const out = mkdtempSync(join(tmpdir(), 'bench-gate-cost-'));
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(dir, 'bin/harness.mjs'), 'run', '--skip', 'load', '--out', join(out, 'report')],
      {
        cwd: dir,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: 'ignore',
      },
    );
    child.on('exit', () => {
      const file = join(out, 'report', 'summary.json');
      const m: Measured = existsSync(file)
        ? { label, summary: JSON.parse(readFileSync(file, 'utf8')) as SummaryView }
        : { label, error: 'no summary.json written' };
      rmSync(out, { recursive: true, force: true });
      resolve(m);
    });
  });
}

/**
 * The same against a freshly served deployment's Team key (120/min, burst 200: the refill makes
 * this take minutes), each run on its own deployment so neither starts on the other's bucket.
 */
async function teamRun(dir: string, label: string): Promise<Measured> {
  const served = await spawnServe([]);
  try {
    return await gateRun(dir, label, served.vars);
  } finally {
    await served.stop();
  }
}

/** The revision to compare with: --against, else the merge base with main (none: undefined). */
function baseRevision(): string | undefined {
  if (values['no-against']) return undefined;
  const rev = values.against ?? 'main';
  const git = (args: string[]) =>
    spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout.trim() || undefined;
  const commit = values.against
    ? git(['rev-parse', '--verify', `${rev}^{commit}`])
    : git(['merge-base', 'HEAD', rev]);
  return commit;
}

/** The tree of `commit` in a temporary directory, with this checkout's node_modules. */
function unpack(commit: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gate-cost-rev-'));
  const tar = execFileSync('git', ['archive', '--format=tar', commit], {
    cwd: root,
    maxBuffer: 512 * 1024 * 1024,
  });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

function columns(m: Measured): Record<string, string> {
  const s = m.summary;
  if (!s) return { error: m.error ?? 'did not run' };
  const documented = s.checks.filter(
    (c) => c.provenance === 'documented' && c.passed + c.failed > 0,
  ).length;
  const r = s.requests;
  const row: Record<string, string> = {
    verdict: `${s.verdict} (exit ${s.exitCode})`,
    'wall time': `${(s.durationMs / 1000).toFixed(1)} s`,
    'requests, total': r ? String(r.total) : 'n/a',
  };
  for (const [area, n] of Object.entries(r?.byArea ?? {})) row[`requests, ${area}`] = String(n);
  row['documented rules covered'] = String(documented);
  row['requests per documented rule'] = r && documented ? (r.total / documented).toFixed(2) : 'n/a';
  if (r?.waitedS !== undefined) row['waited for the rate limit'] = `${r.waitedS.toFixed(1)} s`;
  return row;
}

function table(ms: Measured[]): string {
  const cols = ms.map(columns);
  const keys = [...new Set(cols.flatMap((c) => Object.keys(c)))];
  const w0 = Math.max(...keys.map((k) => k.length));
  const ws = ms.map((m, i) =>
    Math.max(m.label.length, ...keys.map((k) => (cols[i]![k] ?? '—').length)),
  );
  const line = (k: string, cells: string[]) =>
    [k.padEnd(w0), ...cells.map((c, i) => c.padStart(ws[i]!))].join('  ');
  return [
    line(
      '',
      ms.map((m) => m.label),
    ),
    ...keys.map((k) =>
      line(
        k,
        cols.map((c) => c[k] ?? '—'),
      ),
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  process.stdout.write(
    `cpus ${cpus().length}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  const commit = baseRevision();
  const runs: Measured[] = [];
  let dir: string | undefined;
  try {
    if (commit) {
      dir = unpack(commit);
      runs.push(await gateRun(dir, `${commit.slice(0, 8)} (base)`));
    }
    runs.push(await gateRun(root, 'this checkout'));
    process.stdout.write(
      `harness run --skip load, embedded reference deployment (its key has no rate limit: the full fuzz)\n${table(runs)}\n`,
    );
    if (values.team) {
      const team: Measured[] = [];
      if (dir && commit) team.push(await teamRun(dir, `${commit.slice(0, 8)} (base)`));
      team.push(await teamRun(root, 'this checkout'));
      process.stdout.write(
        `\nthe same against 'harness serve' (this checkout's), a Team key: 120/min, burst 200\n${table(team)}\n`,
      );
    }
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  if (!commit)
    process.stdout.write(
      'no base revision (--no-against, or no main branch): this checkout only\n',
    );
}

await main();
