/**
 * `harness diff-spec OLD NEW [--format md|json|junit] [--out FILE] [--fail-on ERR|WARN|INFO]
 *   [--level RULE=LEVEL ...]`
 *
 * OLD and NEW are files or git revisions written `REF:path` (`HEAD~1:spec/openapi.yaml`). Prints
 * (or writes) a direction-aware compatibility report and exits 1 when a finding at or above
 * `--fail-on` (default ERR) exists, 0 otherwise. `--level` moves a rule to another level (a rule
 * id, or a family without its prefix: `enum-value-added=WARN`). Exit 2: misuse or a spec that
 * cannot be read completely (e.g. an unresolvable `$ref`).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { reportFlags } from '../report-flags.ts';
import { diffSpecs, failing, loadSpec, parseLevelOverrides, render } from '../../diff/index.ts';

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'md' },
      out: { type: 'string' },
      'fail-on': { type: 'string', default: 'ERR' },
      level: { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(
      'usage: harness diff-spec OLD NEW [--format md|json|junit] [--out FILE] [--fail-on ERR|WARN|INFO]\n' +
        '                         [--level RULE=ERR|WARN|INFO ...]\n' +
        '  OLD/NEW: a file, or REF:path read with git show (e.g. HEAD~1:spec/openapi.yaml)\n' +
        '  --level: move a rule (e.g. response-enum-value-added=WARN); rules: docs/usage.md\n',
    );
    return 0;
  }
  if (positionals.length !== 2)
    throw new Error('expected two specs: harness diff-spec OLD NEW (files or REF:path)');
  const { format, failOn } = reportFlags(values);
  const [oldSrc, newSrc] = positionals as [string, string];
  const levels = parseLevelOverrides(values.level ?? []);
  const findings = diffSpecs(loadSpec(oldSrc), loadSpec(newSrc), { levels });
  const text = render(format, findings, { old: oldSrc, new: newSrc, failOn });
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
  return failing(findings, failOn).length > 0 ? 1 : 0;
}
