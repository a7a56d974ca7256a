/**
 * `harness detect`: the detection matrix (fault → check → caught, and nothing else unlisted)
 * against the reference deployment, embedded and (webhook faults) in dashboard mode as a separate
 * process.
 */
import { caughtEverywhere, detectionMarkdown, runDetectionMatrix } from '../detection.ts';
import {
  type CommandSpec,
  parseCommand,
  UsageError,
  usageText,
} from '../../core/cli/command-spec.ts';
import { ConfigError, loadConfig } from '../../core/config.ts';
import { prepareOut } from '../../core/output-dir.ts';
import { FAULT_NAMES, FAULTS } from '../../server/faults.ts';

export const spec = {
  name: 'detect',
  summary:
    'The detection matrix: the whole contract suite against the reference deployment with each contract and webhook fault of the catalogue on, one at a time; each must be caught by its named check and fail no other check the catalogue does not list for it (webhook faults also in dashboard mode); a fault that keeps its check from being checked (keyless-429) is caught when the run names that check unchecked. Long: ≈ 11 min on two busy cores, ≈ 11 CPU-minutes (--fault runs a part).',
  options: {
    out: {
      type: 'string',
      arg: 'DIR',
      default: 'reports/detect',
      help: 'where the matrix and its runs’ raw results go (a folder of its own, emptied first)',
    },
    fault: {
      type: 'string',
      arg: 'a,b',
      multiple: true,
      help: 'only these faults of the catalogue (repeatable, or comma-separated)',
    },
  },
  env: ['HARNESS_WORKERS', 'HARNESS_BASE_URL'],
  examples: [
    'npm run detect',
    'npx harness detect --out /tmp/detection',
    'npx harness detect --fault create-status-new,sla-missing',
  ],
  exit0:
    'every fault caught by its named check alone (or with the checks it lists), in every mode run',
  exit1:
    'a fault went unnoticed by its check, or another check failed that the catalogue does not list for it',
} as const satisfies CommandSpec;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand(spec, argv);
  if (!parsed) return 0;
  const only = parsed.values.fault?.flatMap((f) => f.split(',')).map((f) => f.trim());
  const unknown = only?.filter((f) => !FAULT_NAMES.has(f)) ?? [];
  if (unknown.length > 0)
    throw new UsageError(
      `unknown fault ${unknown.map((f) => `'${f}'`).join(', ')} (npm run serve -- --list-faults)`,
      usageText(spec),
    );
  // The matrix runs the contract suite; a limits fault shows only under load, which its own
  // self-tests measure. Asked for one alone, the matrix would run nothing and pass: "0 of 0".
  const limits = FAULTS.filter((f) => f.area === 'limits' && only?.includes(f.name));
  if (limits.length > 0)
    throw new UsageError(
      `${limits.map((f) => `'${f.name}' (load.${f.check})`).join(', ')}: a limits fault, judged under load, not by this matrix of contract and webhook checks — its detection is the load self-tests': node --import tsx --test test/load/reference-deployment.test.ts (Node driver), test/load/k6-faults.test.ts (k6)`,
      usageText(spec),
    );
  // The matrix switches faults of the embedded deployment: a target named by the configuration
  // cannot be tested this way, and ignoring it silently would read as a verdict on it.
  const cfg = loadConfig(process.env, { apiKey: 'optional' });
  if (cfg.baseUrl)
    throw new ConfigError(
      `detect runs the fault catalogue on the embedded reference deployment; HARNESS_BASE_URL (${cfg.baseUrl}) cannot be tested this way: unset it (harness run tests a target)`,
    );
  const out = parsed.values.out ?? 'reports/detect';
  prepareOut(out, 'harness detect');
  const rows = await runDetectionMatrix(out, false, { only });
  process.stdout.write(detectionMarkdown(rows));
  const missed = rows.filter((r) => !caughtEverywhere(r)).length;
  process.stdout.write(
    `\n${rows.length - missed} of ${rows.length} faults caught by their named check alone, or with the checks the catalogue lists for them (in every mode run)\n`,
  );
  return missed === 0 ? 0 : 1;
}
