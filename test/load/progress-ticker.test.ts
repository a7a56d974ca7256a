/**
 * The live progress on a terminal (one line for all on a 100-column terminal would be cut at the
 * screen width, and Growth's figures never show): one line per plan, each fitted to the width
 * by abbreviating, redrawn in place; k6's console output written meanwhile lands above the block
 * and never tears it. The stream is a fake TTY whose writes a small terminal emulator applies,
 * so the test reads the screen a user would see.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import {
  type LiveProgress,
  type PlanName,
  phaseLabel,
  progressText,
} from '../../load/lib/index.ts';
import { progressLines, startTicker } from '../../load/progress-ticker.ts';

/** The CSI sequences the ticker writes (F: previous line, K: erase line, J: erase below). */
class Screen {
  rows: string[] = [''];
  row = 0;
  col = 0;
  apply(text: string): void {
    const re = /\x1b\[(\d*)([A-Za-z])|\r|\n|[^\x1b\r\n]/gu;
    for (const m of text.matchAll(re)) {
      const t = m[0];
      if (t === '\n') {
        this.row++;
        this.col = 0;
        this.rows[this.row] ??= '';
      } else if (t === '\r') this.col = 0;
      else if (m[2] === 'F') {
        this.row = Math.max(0, this.row - Number(m[1] || 1));
        this.col = 0;
      } else if (m[2] === 'K') this.rows[this.row] = '';
      else if (m[2] === 'J') {
        this.rows[this.row] = [...this.rows[this.row]!].slice(0, this.col).join('');
        this.rows.length = this.row + 1;
      } else if (m[2]) throw new Error(`unexpected escape ${JSON.stringify(t)}`);
      else {
        const chars = [...(this.rows[this.row] ?? '')];
        while (chars.length < this.col) chars.push(' ');
        chars[this.col++] = t;
        this.rows[this.row] = chars.join('');
      }
    }
  }
  /** What shows, without the empty line the cursor rests on. */
  text(): string[] {
    return this.rows.filter((r, i) => r !== '' || i < this.row);
  }
}

function fakeTty(columns: number): { stream: Writable; screen: Screen; raw: () => string } {
  const screen = new Screen();
  let raw = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      raw += String(chunk);
      screen.apply(String(chunk));
      done();
    },
  });
  Object.assign(stream, { isTTY: true, columns });
  return { stream, screen, raw: () => raw };
}

const team: LiveProgress = {
  plan: 'team',
  phase: 'S2b',
  sent: 1412,
  ok: 1198,
  rejected: 214,
  planned: 1791,
  burst: 201,
  ratePerMin: 120.4,
};
const growth: LiveProgress = {
  plan: 'growth',
  phase: 'S4',
  waiting: true,
  idleS: 40,
  sent: 5120,
  ok: 3101,
  rejected: 2019,
  planned: 6388,
  burst: 1001,
  ratePerMin: 600.2,
};
const readers = (...ps: LiveProgress[]) =>
  new Map<PlanName, () => LiveProgress | undefined>(ps.map((p) => [p.plan, () => p]));

describe('the live progress line', () => {
  test('phases in words, from DESIGN.md’s load section', () => {
    assert.equal(phaseLabel('S1'), 'burst');
    assert.equal(phaseLabel('S5'), 'second key');
    assert.equal(phaseLabel('S2'), 'overdrive 4×rate');
    assert.equal(phaseLabel('S2b'), 'sustained 0.9×rate');
    assert.equal(phaseLabel('S4', { waiting: true, idleS: 40 }), 'idle 40 s then burst');
    assert.equal(phaseLabel('S3', { idleS: 20 }), 'burst after 20 s idle');
    assert.equal(phaseLabel('S6'), 'retry after 429');
    assert.equal(
      progressText(team),
      'team sustained 0.9×rate 1412/1791 sent, 1198 2xx, 214 429, burst ≈ 201, rate ≈ 120.4/min',
    );
  });

  test('a narrow width abbreviates the figures before it cuts anything', () => {
    const full = progressText(growth);
    assert.equal(
      full,
      'growth idle 40 s then burst 5120/6388 sent, 3101 2xx, 2019 429, burst ≈ 1001, rate ≈ 600.2/min',
    );
    for (const width of [200, 90, 70, 50, 40, 20, 5]) {
      const t = progressText(growth, width);
      assert.ok([...t].length <= width, `${width}: ${t}`);
    }
    // At 80 and 70 columns every figure and the phase are still there, in short.
    assert.equal(
      progressText(growth, 80),
      'growth idle 40 s then burst 5120/6388 · 3101 2xx · 2019 429 · B≈1001 r≈600.2',
    );
    assert.equal(
      progressText(growth, 70),
      'growth idle 40 s then burst 5120/6388 2xx 3101 429 2019 B≈1001 r≈600.2',
    );
    assert.equal(progressText(growth, 50), 'growth 5120/6388 2xx 3101 429 2019 B≈1001 r≈600.2');
    assert.equal(progressText(growth, 20), 'growth 5120/6388 2x…');
  });

  test('on a 100-column terminal: one line per plan, both plans’ figures shown', async () => {
    const { stream, screen } = fakeTty(100);
    const t = startTicker(stream, readers(team, growth), 'node starting team, growth', 5000);
    await new Promise((r) => setTimeout(r, 600)); // two redraws
    const live = screen.text();
    assert.equal(live.length, 2, live.join('\n'));
    for (const l of live) assert.ok([...l].length <= 99, `fits: ${l}`);
    assert.match(live[0]!, /^load \d s · team sustained 0\.9×rate .*201.*120\.4/);
    assert.match(live[1]!, /^load \d s · growth .*5120\/6388.*2019.*1001.*600\.2/);
    // k6's own output goes above the block; the block is redrawn whole below it.
    t.write('k6: some line of its own\n');
    t.stop();
    const after = screen.text();
    assert.equal(after.length, 3, after.join('\n'));
    assert.equal(after[0], 'k6: some line of its own');
    assert.match(after[1]!, /· team /);
    assert.match(after[2]!, /· growth /);
  });

  test('not a terminal (CI): plain lines, one per plan, no escapes, not cut', () => {
    let text = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        text += String(chunk);
        done();
      },
    });
    startTicker(stream, readers(team, growth), 'idle', 5000).stop();
    assert.ok(!text.includes('\x1b'), 'no escapes');
    const lines = text.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.ok(lines[1]!.endsWith(progressText(growth)), lines[1]);
  });

  test('before any plan reports: the idle line, fitted too', () => {
    assert.deepEqual(progressLines(new Map(), 3, 'k6 starting team, growth', 20), [
      'load 3 s · k6 starti',
    ]);
  });
});
