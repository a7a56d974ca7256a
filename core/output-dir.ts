/**
 * The run's output directory: emptied at the start of each run — only when the harness made it —
 * and every file written into it redacted.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { redact, redactValue } from './redact.ts';

const MARKER = '.harness-output';

/**
 * Empties the output directory, refusing to delete one the harness did not create — unless it is
 * empty (a fresh `mktemp -d`), where there is nothing to lose.
 */
export function prepareOut(out: string): void {
  if (existsSync(out)) {
    const ours =
      existsSync(join(out, MARKER)) ||
      out.endsWith(join('reports', 'latest')) ||
      readdirSync(out).length === 0;
    if (!ours) {
      throw new Error(`refusing to clear ${out}: not a harness output directory (no ${MARKER})`);
    }
    rmSync(out, { recursive: true, force: true });
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, MARKER), 'written by harness run; emptied at the start of each run\n');
}

/** Appends `rows` to a JSONL file (one per line, redacted), making its directory. */
export function appendJsonl(file: string, rows: readonly unknown[]): void {
  if (rows.length === 0) return;
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${rows.map((r) => JSON.stringify(redactValue(r))).join('\n')}\n`);
}

export function writeRedacted(out: string, name: string, text: string): string {
  const file = join(out, name);
  writeFileSync(file, redact(text));
  return file;
}
