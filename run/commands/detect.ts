/**
 * `harness detect`: the detection matrix (fault → check → caught) against the reference
 * deployment, embedded and (webhook faults) in dashboard mode as a separate process.
 */
import { caughtEverywhere, detectionMarkdown, runDetectionMatrix } from '../detection.ts';
import { type CommandSpec, parseCommand } from '../../core/cli/command-spec.ts';
import { prepareOut } from '../../core/output-dir.ts';
import { ConfigError, loadConfig } from '../../core/config.ts';

export const spec = {
  name: 'detect',
  summary:
    'The detection matrix: the contract suite against the reference deployment with each contract and webhook fault of the catalogue on, one at a time; each must be caught by its named check (webhook faults also in dashboard mode). Several minutes: ≈ 8–12 on two cores.',
  options: {
    out: {
      type: 'string',
      arg: 'DIR',
      default: 'reports/detect',
      help: 'where the matrix and its runs’ raw results go (a folder of its own, emptied first)',
    },
  },
  env: ['HARNESS_WORKERS', 'HARNESS_BASE_URL'],
  examples: ['npm run detect', 'npx harness detect --out /tmp/detection'],
  exit0: 'every fault caught by its named check, in every mode run',
  exit1: 'a fault went unnoticed by its check',
} as const satisfies CommandSpec;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand(spec, argv);
  if (!parsed) return 0;
  // The matrix switches faults of the embedded deployment: a target named by the configuration
  // cannot be tested this way, and ignoring it silently would read as a verdict on it.
  const cfg = loadConfig(process.env, { apiKey: 'optional' });
  if (cfg.baseUrl)
    throw new ConfigError(
      `detect runs the fault catalogue on the embedded reference deployment; HARNESS_BASE_URL (${cfg.baseUrl}) cannot be tested this way: unset it (harness run tests a target)`,
    );
  const out = parsed.values.out ?? 'reports/detect';
  prepareOut(out, 'harness detect');
  const rows = await runDetectionMatrix(out, false);
  process.stdout.write(detectionMarkdown(rows));
  const missed = rows.filter((r) => !caughtEverywhere(r)).length;
  process.stdout.write(
    `\n${rows.length - missed} of ${rows.length} faults caught by their named check (in every mode run)\n`,
  );
  return missed === 0 ? 0 : 1;
}
