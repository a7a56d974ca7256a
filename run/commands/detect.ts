/**
 * `harness detect`: the detection matrix (fault → check → caught) against the reference
 * deployment, embedded and (webhook faults) in dashboard mode as a separate process.
 */
import { caughtEverywhere, detectionMarkdown, runDetectionMatrix } from '../detection.ts';
import { type CommandSpec, parseCommand } from '../../core/cli/command-spec.ts';

export const spec = {
  name: 'detect',
  summary:
    'The detection matrix: the contract suite against the reference deployment with each contract and webhook fault of the catalogue on, one at a time; each must be caught by its named check (webhook faults also in dashboard mode). Several minutes: ≈ 8–12 on two cores.',
  options: {
    out: {
      type: 'string',
      arg: 'DIR',
      default: 'reports/latest',
      help: 'where the matrix runs write their raw results',
    },
  },
  env: ['HARNESS_WORKERS'],
  examples: ['npm run detect', 'npx harness detect --out /tmp/detection'],
  exit0: 'every fault caught by its named check, in every mode run',
  exit1: 'a fault went unnoticed by its check',
} as const satisfies CommandSpec;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand(spec, argv);
  if (!parsed) return 0;
  const rows = await runDetectionMatrix(parsed.values.out ?? 'reports/latest', false);
  process.stdout.write(detectionMarkdown(rows));
  const missed = rows.filter((r) => !caughtEverywhere(r)).length;
  process.stdout.write(
    `\n${rows.length - missed} of ${rows.length} faults caught by their named check (in every mode run)\n`,
  );
  return missed === 0 ? 0 : 1;
}
