/**
 * The live progress of a load run on its stream (stderr in the CLI and `npm start`), for both
 * engines. On a terminal one line per plan, each fitted to the terminal's width (a plan's line
 * abbreviates itself rather than being cut off: live-progress.ts `progressText`), redrawn four
 * times a second in place; anything else written meanwhile (k6's own console output) goes above
 * the block through `write`, so it never tears it. Elsewhere (CI logs) one plain line per plan
 * every `everyMs`. At the end each plan's final state, so a short run shows it too.
 */
import { type LiveProgress, type PlanName, progressText } from './lib/index.ts';

export type ProgressStream = NodeJS.WriteStream | NodeJS.WritableStream;

export interface ProgressTicker {
  /** Writes `text` (whole lines) above the live block. */
  write(text: string): void;
  stop(): void;
}

/** CSI sequences: to the start of the line `n` up, erase the line, erase to the end of screen. */
const UP = (n: number) => `\x1b[${n}F`;
const ERASE_LINE = '\x1b[2K';
const ERASE_BELOW = '\x1b[J';

/** The terminal's width: the stream's, else stdout's (both may be unknown). */
function columnsOf(out: ProgressStream): number {
  const own = 'columns' in out ? out.columns : undefined;
  return own || process.stdout.columns || 80;
}

/**
 * One line per plan: `load 43 s · team overdrive 4×rate 412/791 sent, …`, each at most `width`
 * characters; `idle` while no plan reports yet.
 */
export function progressLines(
  progress: ReadonlyMap<PlanName, () => LiveProgress | undefined>,
  elapsedS: number,
  idle: string,
  width = Number.POSITIVE_INFINITY,
): string[] {
  const prefix = `load ${elapsedS.toFixed(0)} s · `;
  const room = width - prefix.length;
  const plans = [...progress.values()].flatMap((read) => {
    const p = read();
    return p ? [`${prefix}${progressText(p, room)}`] : [];
  });
  return plans.length ? plans : [`${prefix}${idle}`.slice(0, Math.max(0, width))];
}

export function startTicker(
  out: ProgressStream,
  progress: ReadonlyMap<PlanName, () => LiveProgress | undefined>,
  idle: string,
  everyMs: number,
): ProgressTicker {
  const t0 = Date.now();
  const tty = 'isTTY' in out && out.isTTY === true;
  const elapsed = () => (Date.now() - t0) / 1000;
  /** Lines of the live block now on the screen, the cursor on the line below them. */
  let shown = 0;
  const draw = () => {
    // One column spare: a line as wide as the terminal wraps on some of them.
    const lines = progressLines(progress, elapsed(), idle, columnsOf(out) - 1);
    out.write(
      `${shown ? UP(shown) : '\r'}${lines.map((l) => `${ERASE_LINE}${l}\n`).join('')}${ERASE_BELOW}`,
    );
    shown = lines.length;
  };
  let last = Date.now();
  const tick = setInterval(() => {
    if (tty) draw();
    else if (Date.now() - last >= everyMs) {
      last = Date.now();
      for (const l of progressLines(progress, elapsed(), idle)) out.write(`${l}\n`);
    }
  }, 250);
  return {
    write: (text) => {
      if (tty && shown) {
        out.write(`${UP(shown)}${ERASE_BELOW}${text}`);
        shown = 0;
        draw();
      } else out.write(text);
    },
    stop: () => {
      clearInterval(tick);
      if (tty) draw();
      else for (const l of progressLines(progress, elapsed(), idle)) out.write(`${l}\n`);
    },
  };
}
