/**
 * The contract suite's console reporter (playwright.config.ts): one short line per test — mark,
 * number, file:line › title, duration — and, under a failed test, what failed. Each test's check
 * tags (`@ticket.sla-present …`, ~250 characters on some tests) stay in the report files (HTML,
 * JUnit, JSON); HARNESS_CONSOLE_TAGS=1 (`harness run --tags`) puts them back on the console.
 * At the end: the counts and where this run's report files are.
 */
import { basename, relative } from 'node:path';
import { terminalSafe } from '../core/terminal-safe.ts';
import { envVar } from '../core/variables.ts';
import { readResolved } from '../core/resolved-config.ts';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';

const MARKS: Record<TestResult['status'], string> = {
  passed: '✓',
  failed: '✘',
  timedOut: '✘',
  skipped: '-',
  interrupted: '!',
};

/**
 * Lines of a failure's message shown under its test; the rest is in the HTML report. Under
 * `harness run` the verdict table after the suite says what failed and how to reproduce it, so
 * a line or two is enough there.
 */
const UNDER_HARNESS = Boolean(readResolved()?.suite);
const ERROR_LINES = UNDER_HARNESS ? 2 : 12;

export default class ConsoleReporter implements Reporter {
  private n = 0;
  private total = 0;
  private multiProject = false;
  private started = Date.now();
  private outDir = '';
  private readonly counts = { passed: 0, failed: 0, skipped: 0, interrupted: 0 };
  private readonly failed: string[] = [];
  private readonly tags =
    readResolved()?.suite?.tags === true || envVar('HARNESS_CONSOLE_TAGS') === '1';

  constructor(options: { outDir?: string } = {}) {
    this.outDir = options.outDir ?? '';
  }

  printsToStdio(): boolean {
    return true;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.total = suite.allTests().length;
    this.multiProject = config.projects.length > 1;
    this.started = Date.now();
    const workers = Math.max(1, Math.min(config.workers, this.total));
    process.stdout.write(
      `\nRunning ${this.total} test${this.total === 1 ? '' : 's'} using ${workers} worker${workers === 1 ? '' : 's'}\n\n`,
    );
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.n++;
    const status = result.status;
    this.counts[status === 'timedOut' ? 'failed' : status]++;
    const title = this.title(test);
    const reason =
      status === 'skipped'
        ? test.annotations.find((a) => a.type === 'skip')?.description
        : undefined;
    const tags = this.tags && test.tags.length ? ` ${test.tags.join(' ')}` : '';
    const n = String(this.n).padStart(String(this.total).length);
    process.stdout.write(
      `  ${MARKS[status]} ${n} ${title}${tags}${reason ? ` — ${reason}` : ''} (${result.duration} ms)\n`,
    );
    if (status === 'failed' || status === 'timedOut') {
      this.failed.push(title);
      const message = (result.error?.message ?? result.errors[0]?.message ?? status)
        .split('\n')
        .slice(0, ERROR_LINES);
      // A failure may quote the target's text (control characters, bidi controls).
      for (const line of message) process.stdout.write(`      ${terminalSafe(line)}\n`);
    }
  }

  /** Errors outside any test (global setup, a spec that does not load): always shown. */
  onError(error: TestError): void {
    const text = error.message ?? error.value ?? String(error);
    const lines = text
      .split('\n')
      .slice(0, ERROR_LINES * 2)
      .join('\n');
    process.stderr.write(`\n${/^\w*Error\b/.test(lines) ? '' : 'Error: '}${terminalSafe(lines)}\n`);
  }

  /** What a test prints goes through, marked with its test. */
  onStdOut(chunk: string | Buffer, test?: TestCase): void {
    process.stdout.write(test ? `[${test.title}] ${String(chunk)}` : chunk);
  }

  onStdErr(chunk: string | Buffer, test?: TestCase): void {
    process.stderr.write(test ? `[${test.title}] ${String(chunk)}` : chunk);
  }

  onEnd(result: FullResult): void {
    // `passed` always, the others when there were any, in that order.
    const parts = Object.entries(this.counts)
      .filter(([k, n]) => n > 0 || k === 'passed')
      .map(([k, n]) => `${n} ${k}`);
    process.stdout.write(
      `\n  ${parts.join(', ')} (${((Date.now() - this.started) / 1000).toFixed(1)} s)${result.status === 'timedout' ? ' — time limit reached' : ''}\n`,
    );
    for (const t of this.failed) process.stdout.write(`  ✘ ${t}\n`);
    const rel = relative(process.cwd(), this.outDir);
    const where = !rel ? '.' : rel.startsWith('..') ? this.outDir : rel;
    if (this.outDir && !UNDER_HARNESS)
      process.stdout.write(
        `\nreports of this run: ${where}/ (playwright-html/index.html, junit-contracts.xml, playwright.json)\n` +
          'the one-page report with load, fuzz and compatibility: npm start (reports/latest/)\n',
      );
  }

  /** `auth.spec.ts:59 › describe › title`, the project first when there are several. */
  private title(test: TestCase): string {
    const path = test.titlePath().filter(Boolean);
    // titlePath: '', project, file, ...describes, title.
    const project = this.multiProject ? `[${test.parent.project()?.name}] ` : '';
    const titles = path.slice(path.indexOf(basename(test.location.file)) + 1);
    const where = `${basename(test.location.file)}:${test.location.line}`;
    return `${project}${where} › ${(titles.length ? titles : [test.title]).join(' › ')}`;
  }
}
