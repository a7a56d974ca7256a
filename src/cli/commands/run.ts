/**
 * `harness run` — what `npm start` does. Options:
 *   --env-file FILE   read HARNESS_* variables from FILE (the environment wins on conflicts)
 *   --fault a,b       faults of the embedded reference deployment (see `npm run serve -- --list-faults`)
 *   --strict          an assumption mismatch fails the gate too
 *   --detect          also run the detection matrix (each fault vs its named check, ≈ 1 min)
 *   --skip AREA       contracts | load | fuzz (repeatable)
 *   --out DIR         report directory (default reports/latest)
 *   --grep PATTERN    only the contract tests whose title or tags match (e.g. @auth.invalid-key-401)
 *   --max-seconds N   time limit of the whole run (or HARNESS_RUN_MAX_SECONDS): the area running
 *                     then stops, the others are marked error, every report is written (exit 2
 *                     unless a documented rule already failed)
 *
 * Exit status: 0 pass, 1 a documented rule failed, 2 could not run (target unusable, an area
 * that could not run to its end, misuse).
 */
import { parseArgs } from 'node:util';
import { readEnvFile } from '../../config.ts';
import { positiveNumber } from '../positive-number.ts';
import { type Area, runAll } from '../../run/run-all.ts';

const AREAS: Area[] = ['contracts', 'load', 'fuzz'];

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      'env-file': { type: 'string' },
      fault: { type: 'string', multiple: true, default: [] },
      strict: { type: 'boolean', default: false },
      detect: { type: 'boolean', default: false },
      skip: { type: 'string', multiple: true, default: [] },
      out: { type: 'string' },
      'max-seconds': { type: 'string' },
      grep: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: harness run [--env-file FILE] [--fault a,b] [--strict] [--detect] [--skip contracts|load|fuzz] [--out DIR] [--grep PATTERN] [--max-seconds N]\n' +
        '  --grep PATTERN   only the contract tests whose title or tags match (e.g. @auth.invalid-key-401)\n' +
        '  --max-seconds N  time limit of the whole run (or HARNESS_RUN_MAX_SECONDS): the area running then\n' +
        '                   stops, the rest are marked error, every report is still written\n' +
        'exit status: 0 pass, 1 a documented rule failed, 2 could not run (target unusable, an area cut short)\n',
    );
    return 0;
  }
  if (values['env-file']) {
    for (const [k, v] of Object.entries(readEnvFile(values['env-file']))) process.env[k] ??= v;
  }
  const skip = values.skip.flatMap((s) => s.split(',')) as Area[];
  const bad = skip.filter((s) => !AREAS.includes(s));
  if (bad.length) throw new Error(`--skip takes ${AREAS.join(', ')}; got ${bad.join(', ')}`);
  const faults = values.fault.flatMap((f) => f.split(',')).filter(Boolean);
  if (faults.length) {
    const { FaultSet } = await import('../../../server/faults.ts');
    new FaultSet(faults); // unknown names fail here, with the list of known ones
  }
  const maxSeconds =
    values['max-seconds'] === undefined
      ? undefined
      : positiveNumber('max-seconds', values['max-seconds'], 0);
  const { exitCode, outOfTime } = await runAll({
    outDir: values.out,
    skip,
    faults,
    strict: values.strict,
    detect: values.detect,
    maxSeconds,
    grep: values.grep,
  });
  // An area cut short by the time limit may still hold sockets and timers: the reports are
  // written, so end here rather than wait for it.
  if (outOfTime) process.exit(exitCode);
  return exitCode;
}
