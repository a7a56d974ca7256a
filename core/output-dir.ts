/**
 * A command's output directory: each command that writes reports owns one (`harness run`
 * reports/latest/, `harness load` reports/load/, `harness detect` reports/detect/, the contract
 * suite alone reports/playwright/), emptied at its start — only when the harness made it — so a
 * folder always holds one run of one command, never two runs side by side. Every file written
 * into it is redacted.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { redact, redactValue } from './redact.ts';

const MARKER = '.harness-output';

/**
 * Empties the output directory, refusing to delete one the harness did not create — unless it is
 * empty (a fresh `mktemp -d`), where there is nothing to lose.
 */
export function prepareOut(out: string, command = 'harness run'): void {
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
  writeFileSync(join(out, MARKER), `written by ${command}; emptied at the start of each run\n`);
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
