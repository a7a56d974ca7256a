/**
 * The contract suite's pulse of the target: every worker appends one line per exchange to
 * `<out>/raw/transport.log` — answered, or not and why — and `harness run` watches its tail
 * (`PulseWatch`). A few requests in a row without an answer, from any worker, mean the target
 * stopped answering: the area stops with `error` instead of every remaining test waiting out
 * its timeouts against a dead or silent target. A file, not worker memory, because Playwright
 * replaces a worker after each failed test.
 */
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from '../core/checks/types.ts';

export const PULSE_FILE = 'transport.log';

/** Consecutive exchanges without an answer after which the target counts as down. */
export const DOWN_AFTER = 3;

let madeDir: string | undefined;

/** Worker side: one line for `ex` (`<epoch ms> ok`, or `<epoch ms> down <error>`). */
export function notePulse(rawDir: string, ex: Exchange): void {
  if (madeDir !== rawDir) {
    mkdirSync(rawDir, { recursive: true });
    madeDir = rawDir;
  }
  // Playwright prefixes its method name (`apiRequestContext.fetch: Timeout …`): the cause is after.
  const error = (ex.error ?? 'no answer').replace(/^apiRequestContext\.\w+: /, '');
  const what = ex.response ? 'ok' : `down ${error.replace(/\s+/g, ' ')}`;
  appendFileSync(join(rawDir, PULSE_FILE), `${Date.now()} ${what}\n`);
}

export interface TargetDown {
  /** Epoch ms of the first unanswered request of the streak. */
  since: number;
  /** Requests in a row that got no answer. */
  count: number;
  /** The last transport error. */
  error: string;
}

/** Parent side: reads the lines appended since the last poll and keeps the current streak. */
export class PulseWatch {
  private offset = 0;
  private rest = '';
  private streak: TargetDown | undefined;

  constructor(
    private readonly file: string,
    private readonly downAfter = DOWN_AFTER,
  ) {}

  /** The streak once it reaches `downAfter`, else undefined. */
  poll(): TargetDown | undefined {
    let fd: number;
    try {
      fd = openSync(this.file, 'r');
    } catch {
      return undefined; // no exchange yet
    }
    try {
      const size = fstatSync(fd).size;
      if (size > this.offset) {
        const buf = Buffer.alloc(size - this.offset);
        readSync(fd, buf, 0, buf.length, this.offset);
        this.offset = size;
        const lines = (this.rest + buf.toString('utf8')).split('\n');
        this.rest = lines.pop() ?? '';
        for (const l of lines) this.take(l);
      }
    } finally {
      closeSync(fd);
    }
    return this.streak && this.streak.count >= this.downAfter ? this.streak : undefined;
  }

  private take(line: string): void {
    const m = /^(\d+) (ok|down)(?: (.*))?$/.exec(line);
    if (!m) return;
    if (m[2] === 'ok') {
      this.streak = undefined;
      return;
    }
    const at = Number(m[1]);
    this.streak = {
      since: this.streak?.since ?? at,
      count: (this.streak?.count ?? 0) + 1,
      error: m[3] ?? 'no answer',
    };
  }
}
