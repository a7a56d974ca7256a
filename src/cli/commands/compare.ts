/**
 * `harness compare BASELINE CURRENT [--format md|json|junit] [--out FILE] [--fail-on ERR|WARN|INFO]
 *   [--partial]`
 *
 * BASELINE and CURRENT are `snapshot.json` files written by `harness run` (or report directories
 * holding one). Prints (or writes) what the current deployment does differently — statuses,
 * headers, content types, body shapes, gap values, plan limits — and exits 1 when a finding at
 * or above `--fail-on` (default ERR) exists, 0 otherwise. `--partial`: CURRENT ran only part of
 * the suite (`--grep`), so a status it did not see is reported as not observed, not removed.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { reportFlags } from '../report-flags.ts';
import { compareSnapshots, failing, loadSnapshot, render } from '../../compare/index.ts';

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'md' },
      out: { type: 'string' },
      'fail-on': { type: 'string', default: 'ERR' },
      partial: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: harness compare BASELINE CURRENT [--format md|json|junit] [--out FILE] [--fail-on ERR|WARN|INFO] [--partial]\n' +
        '  BASELINE/CURRENT: snapshot.json files from harness run (or their report directories),\n' +
        '  e.g. harness compare reports/baselines/reference.snapshot.json reports/latest\n' +
        '  --partial: CURRENT ran part of the suite; statuses it did not see are not removals\n',
    );
    return 0;
  }
  if (positionals.length !== 2)
    throw new Error('expected two snapshots: harness compare BASELINE CURRENT');
  const { format, failOn } = reportFlags(values);
  const [baseSrc, curSrc] = positionals as [string, string];
  const findings = compareSnapshots(loadSnapshot(baseSrc), loadSnapshot(curSrc), {
    partial: values.partial ?? false,
  });
  const text = render(format, findings, { baseline: baseSrc, current: curSrc, failOn });
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
  return failing(findings, failOn).length > 0 ? 1 : 0;
}
