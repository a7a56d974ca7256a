/**
 * The CI workflow examples in .github/workflows (not run here): each parses, has the triggers
 * and steps its use needs, and every harness command, npm script, flag and file it calls exists.
 * The nightly's inline chart and verdict steps run for real against a committed load result.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CORE_SCHEMA, load as parseYaml } from 'js-yaml';
import { COMMANDS } from '../../run/commands.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FILES = ['staging-gate.yml', 'nightly-limits.yml', 'compat-report.yml'] as const;

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  steps: Step[];
  strategy?: { matrix: Record<string, unknown> };
  env?: Record<string, string>;
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

function load(file: string): Workflow {
  const text = readFileSync(join(root, '.github/workflows', file), 'utf8');
  // The YAML 1.2 core schema: `on:` stays a key (YAML 1.1 would read it as `true`).
  const doc = parseYaml(text, { schema: CORE_SCHEMA, filename: file });
  assert.ok(doc !== null && typeof doc === 'object', `${file} parses to a mapping`);
  return doc as Workflow;
}

const workflows = Object.fromEntries(FILES.map((f) => [f, load(f)])) as Record<
  (typeof FILES)[number],
  Workflow
>;
const steps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps);
const runs = (w: Workflow) =>
  steps(w)
    .map((s) => s.run ?? '')
    .join('\n');
const uploads = (w: Workflow) =>
  steps(w)
    .filter((s) => s.uses?.startsWith('actions/upload-artifact'))
    .map((s) => String(s.with?.path ?? ''))
    .join('\n');

const helpCache = new Map<string, string>();
function help(cmd: string): string {
  if (!helpCache.has(cmd)) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'run/main.ts', cmd, '--help'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(r.status, 0, `harness ${cmd} --help: ${r.stderr}`);
    helpCache.set(cmd, r.stdout);
  }
  return helpCache.get(cmd)!;
}

describe('CI workflow examples', () => {
  test('each has a name, triggers and jobs whose steps either run or use something', () => {
    for (const [file, w] of Object.entries(workflows)) {
      assert.ok(w.name && w.on && Object.keys(w.jobs).length > 0, `${file}: name, on, jobs`);
      for (const [id, job] of Object.entries(w.jobs)) {
        assert.ok(job['runs-on'], `${file} ${id}: runs-on`);
        for (const s of job.steps)
          assert.ok(s.run || s.uses, `${file} ${id}: ${JSON.stringify(s)}`);
      }
    }
  });

  test('staging gate: on deploy and by hand, Playwright shards, JUnit and the HTML uploaded', () => {
    const w = workflows['staging-gate.yml'];
    assert.ok('deployment_status' in w.on && 'workflow_dispatch' in w.on, 'triggers');
    assert.match(w.env?.HARNESS_BASE_URL ?? '', /secrets\.HARNESS_BASE_URL/, 'target from secrets');
    const shards = Object.values(w.jobs).find((j) => j.strategy?.matrix.shard);
    assert.ok(shards, 'a job with a shard matrix');
    assert.match(runs(w), /npx playwright test --shard=\$\{\{ matrix\.shard \}\}\/4/, 'shards');
    assert.equal((shards.strategy?.matrix.shard as number[] | undefined)?.length, 4, 'four shards');
    assert.match(runs(w), /apt-get install -y -qq chromium/, 'Debian chromium');
    assert.match(uploads(w), /junit-contracts\.xml/, 'shard JUnit');
    assert.match(uploads(w), /reports\/latest\/junit\.xml/, 'report JUnit');
    assert.match(uploads(w), /reports\/latest\/index\.html/, 'HTML report');
  });

  test('nightly limits: scheduled, k6 from setup-k6-action, plan keys from secrets, JSON + SVG', () => {
    const w = workflows['nightly-limits.yml'];
    assert.ok('schedule' in w.on, 'scheduled');
    assert.ok(
      steps(w).some((s) => s.uses?.startsWith('grafana/setup-k6-action')),
      'installs k6',
    );
    assert.match(runs(w), /k6 run --quiet load\/plan-limits\.ts/, 'k6 script');
    const job = Object.values(w.jobs)[0]!;
    assert.match(job.env?.PLAN_KEYS ?? '', /secrets\[matrix\.keys\]/, 'keys from secrets');
    assert.match(uploads(w), /load-\$\{\{ matrix\.plan \}\}\.json/, 'JSON uploaded');
    assert.match(uploads(w), /load-\$\{\{ matrix\.plan \}\}\.svg/, 'SVG uploaded');
  });

  test('compat report: on spec PRs, diff-spec against the base branch as a PR comment', () => {
    const w = workflows['compat-report.yml'];
    const pr = w.on.pull_request as { paths: string[] };
    assert.deepEqual(pr.paths, ['spec/**'], 'only spec changes');
    assert.match(
      runs(w),
      /diff-spec "origin\/\$BASE_REF:spec\/openapi\.yaml" spec\/openapi\.yaml --format md/,
      'diff-spec command',
    );
    assert.ok(
      steps(w).some((s) => s.uses?.startsWith('actions/github-script')),
      'comment via github-script',
    );
    assert.match(runs(w), /DIFF_EXIT" != "0"/, 'fails on ERR');
  });

  test('every harness command and flag they call exists', () => {
    const text = FILES.map((f) => runs(workflows[f])).join('\n');
    const calls = [...text.matchAll(/run\/main\.ts ([a-z-]+)([^\n]*)/g)];
    assert.ok(calls.length >= 3, `harness calls found: ${calls.length}`);
    for (const [, cmd, rest] of calls) {
      assert.ok(COMMANDS[cmd!], `command ${cmd}`);
      for (const [flag] of (rest ?? '').matchAll(/--[a-z][a-z-]+/g))
        assert.ok(help(cmd!).includes(flag), `harness ${cmd} ${flag} (not in its --help)`);
    }
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      dependencies: Record<string, string>;
    };
    for (const [, script] of text.matchAll(/npm run ([a-z:-]+)/g))
      assert.ok(pkg.scripts[script!], `npm script ${script}`);
    assert.ok(pkg.dependencies['@playwright/test'], 'npx playwright comes from @playwright/test');
    for (const f of [
      'playwright.config.ts',
      'load/plan-limits.ts',
      'load/chart-svg.ts',
      'test/report/html-browser.test.ts',
      'reports/baselines/reference.snapshot.json',
    ])
      assert.ok(existsSync(join(root, f)), `${f} exists`);
  });

  describe('the nightly analyser steps run on a real load result', () => {
    const dir = mkdtempSync(join(tmpdir(), 'harness-nightly-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const job = Object.values(workflows['nightly-limits.yml'].jobs)[0]!;
    const step = (name: RegExp) => {
      const s = job.steps.find((x) => name.test(x.name ?? ''));
      assert.ok(s?.run, `step ${name}`);
      return s.run;
    };
    const summary = join(dir, 'load-team.json');
    copyFileSync(new URL('./fixtures/load-team.json', import.meta.url), summary);
    const sh = (script: string) =>
      spawnSync('bash', ['-c', script], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, SUMMARY_PATH: summary },
        timeout: 60_000,
      });

    test('the chart step writes the SVG next to the JSON', () => {
      const r = sh(step(/^Chart/));
      assert.equal(r.status, 0, r.stderr);
      const svg = readFileSync(join(dir, 'load-team.svg'), 'utf8');
      assert.match(svg, /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/, svg.slice(0, 200));
    });

    test('the verdict step prints each verdict and passes a passing run', () => {
      const r = sh(step(/^Verdict/));
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /pass\s+burst/, r.stdout);
    });
  });
});
