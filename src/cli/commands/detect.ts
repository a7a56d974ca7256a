/**
 * `harness detect [--out DIR]`: the detection matrix (fault → check → caught) against the reference
 * deployment, embedded and (webhook faults) in dashboard mode as a separate process.
 */
import { parseArgs } from 'node:util';
import { caughtEverywhere, detectionMarkdown, runDetectionMatrix } from '../../run/detection.ts';

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { out: { type: 'string', default: 'reports/latest' } },
  });
  const rows = await runDetectionMatrix(values.out, false);
  process.stdout.write(detectionMarkdown(rows));
  const missed = rows.filter((r) => !caughtEverywhere(r)).length;
  process.stdout.write(
    `\n${rows.length - missed} of ${rows.length} faults caught by their named check (in every mode run)\n`,
  );
  return missed === 0 ? 0 : 1;
}
