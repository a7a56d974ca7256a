/**
 * `harness diff-spec OLD NEW`: a direction-aware compatibility report between two OpenAPI 3.x
 * documents (files, or git revisions written `REF:path`, e.g. `HEAD~1:spec/openapi.yaml`).
 * `--level` moves a rule to another level (a rule id, or a family without its prefix:
 * `enum-value-added=WARN`). A spec that cannot be read completely (not OpenAPI, an unresolvable
 * `$ref`) is refused, exit 2.
 */
import { diffSpecs, loadSpec, parseLevelOverrides, render } from '../diff/index.ts';
import type { CommandSpec } from '../../core/cli/command-spec.ts';
import { FINDINGS_OPTIONS, runFindingsCommand } from './findings-command.ts';

export const spec = {
  name: 'diff-spec',
  args: 'OLD NEW',
  summary:
    'Breaking-change report between two OpenAPI 3.x specs: every change rated ERR (breaks an existing client), WARN or INFO by which way its values travel.',
  about: [
    'OLD, NEW: a file, or REF:path read with git show (e.g. HEAD~1:spec/openapi.yaml).',
    'The rules and their levels: docs/usage.md.',
  ],
  options: {
    ...FINDINGS_OPTIONS,
    level: {
      type: 'string',
      arg: 'RULE=LEVEL',
      multiple: true,
      help: 'move a rule (or a family without its prefix) to ERR, WARN or INFO, e.g. enum-value-added=WARN (repeatable)',
    },
  },
  env: ['HARNESS_NO_PRECOMPILE', 'HARNESS_DEBUG'],
  examples: [
    'npx harness diff-spec HEAD~1:spec/openapi.yaml spec/openapi.yaml',
    'npx harness diff-spec old.yaml new.yaml --format junit --out diff.xml',
    'npx harness diff-spec old.yaml new.yaml --level response-enum-value-added=WARN --fail-on WARN',
  ],
  exit1: 'a finding at or above --fail-on (default ERR)',
} as const satisfies CommandSpec;

export function run(argv: string[]): Promise<number> {
  return runFindingsCommand(
    spec,
    argv,
    'expected two specs: harness diff-spec OLD NEW (files or REF:path)',
    (oldSrc, newSrc, values) =>
      diffSpecs(loadSpec(oldSrc), loadSpec(newSrc), {
        levels: parseLevelOverrides(values.level ?? []),
      }),
    render,
  );
}
