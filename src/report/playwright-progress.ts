/**
 * The contract suite's console lines under `harness run` (playwright.config.ts picks it when
 * HARNESS_RUN_ID is set): one line per test — mark, file › title, duration — and for a test that
 * did not pass the first line of why. The verdict table after the run says what failed and how
 * to reproduce it; stacks and code frames would only bury that in a CI log, so they stay in
 * playwright-html/ and test-results/ for whoever debugs the harness itself. No tags per line:
 * they are in the report files.
 */
import { basename } from 'node:path';
import type {
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';

const MARK: Record<TestResult['status'], string> = {
  passed: '✓',
  failed: '✘',
  timedOut: '✘',
  skipped: '-',
  interrupted: '·',
};

export default class ProgressReporter implements Reporter {
  private counts: Record<TestResult['status'], number> = {
    passed: 0,
    failed: 0,
    timedOut: 0,
    skipped: 0,
    interrupted: 0,
  };

  printsToStdio(): boolean {
    return true;
  }

  onBegin(_config: unknown, suite: Suite): void {
    process.stdout.write(`contract suite: ${suite.allTests().length} tests\n`);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.counts[result.status]++;
    const title = [basename(test.location.file), ...test.titlePath().slice(3)].join(' › ');
    const why =
      result.status === 'passed' || result.status === 'skipped'
        ? ''
        : `\n      ${(result.error?.message ?? result.status).split('\n')[0]}`;
    process.stdout.write(
      `  ${MARK[result.status]} ${title} (${(result.duration / 1000).toFixed(1)} s)${why}\n`,
    );
  }

  /** An error outside any test (global set-up, a worker that would not start). */
  onError(error: TestError): void {
    process.stdout.write(`contract suite error: ${(error.message ?? 'unknown').split('\n')[0]}\n`);
  }

  onEnd(result: FullResult): void {
    const c = this.counts;
    process.stdout.write(
      `contract suite ${result.status}: ${c.passed} passed, ${c.failed + c.timedOut} failed, ${c.skipped} skipped${c.interrupted ? `, ${c.interrupted} interrupted` : ''}\n`,
    );
  }
}
