/**
 * Keeps the suite's report files when it is stopped as it ends (playwright.config.ts lists this
 * reporter first).
 *
 * The harness stops Playwright with SIGINT (contracts-step.ts: the target stopped answering, the
 * time limit, an interrupt). Playwright listens for SIGINT only while its tasks run; once the
 * suite is over and its reporters write their files, nothing listens, and Node's default for
 * SIGINT ends the runner at once — with the console's summary printed but no playwright.json,
 * so the run would report 0 tests though some had passed. It happens whenever the target goes
 * silent late: the workers' pulse sees the target down as the last tests time out, which is as
 * the suite ends. From the first reporter's onEnd on, a SIGINT is ignored: the suite is
 * already stopping, and what is left is writing what it found. The SIGKILL that follows the
 * harness's grace (STOP_GRACE_MS) still bounds it.
 */
import type { Reporter } from '@playwright/test/reporter';

const ignore = () => {};

export default class ReportsOutliveStop implements Reporter {
  printsToStdio(): boolean {
    return false;
  }

  onEnd(): void {
    process.on('SIGINT', ignore);
  }
}
