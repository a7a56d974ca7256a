/**
 * What a command accepts, as data: its options (each one line: type, placeholder, help), the
 * variables it reads, examples and what each exit status means. The same table parses the
 * command line (node:util parseArgs) and writes `--help`, so a new flag is one line and its help
 * can never drift from what is parsed. A misuse throws `UsageError`, which `run-command.ts` prints
 * with the usage, exit 2.
 */
import { parseArgs } from 'node:util';
import { ENV_VARS, type EnvVar } from '../variables.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** Placeholder of the value in the help (`FILE`, `N`, `a,b`). */
  arg?: string;
  /** Repeatable: the values come as a list. */
  multiple?: boolean;
  short?: string;
  /** Shown in the help and applied by the parser. */
  default?: string | boolean;
  help: string;
}

export type Options = Record<string, OptionSpec>;

export interface CommandSpec<O extends Options = Options> {
  /** `run`, `fuzz receiver`: what follows `harness`. */
  name: string;
  /** Arguments after the name, as in the usage line (`OLD NEW`, `[options]` is added). */
  args?: string;
  /** One line: what the command does. */
  summary: string;
  /** More lines under the summary (what the positionals are, where reports go). */
  about?: string[];
  options: O;
  /** Environment variables the command reads (names from `core/variables.ts`). */
  env: readonly EnvVar[];
  examples: readonly string[];
  /** What exit status 1 means for this command (0 and 2 mean the same everywhere). */
  exit1: string;
  /** What exit status 0 means, when more than "nothing failed". */
  exit0?: string;
  /** What else exit status 2 means for this command, after EXIT_2. */
  exit2?: string;
  /** Subcommands listed in the help (`harness fuzz`). */
  subcommands?: readonly { name: string; summary: string }[];
}

/** Exit statuses, the same for every command (README "Exit status"). */
export const EXIT_2 =
  'could not run: a usage error (the usage is printed), a configuration error (a missing or malformed --env-file or HARNESS_* variable), an unreadable input, a target that cannot be reached';

/** A misuse of the command line: printed with the command's usage, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

type ValueOf<T extends OptionSpec> = T['type'] extends 'boolean'
  ? T['multiple'] extends true
    ? boolean[]
    : boolean
  : T['multiple'] extends true
    ? string[]
    : string;

export type Values<O extends Options> = { [K in keyof O]?: ValueOf<O[K]> };

const HELP: OptionSpec = { type: 'boolean', short: 'h', help: 'this help' };

/**
 * Parses `argv` by the spec. `--help` prints the help and returns undefined (the command returns
 * 0); an unknown option, a missing value or an unexpected argument throws `UsageError`.
 */
export function parseCommand<O extends Options>(
  spec: CommandSpec<O>,
  argv: string[],
  out: (text: string) => void = (t) => process.stdout.write(t),
): { values: Values<O>; positionals: string[] } | undefined {
  const options = Object.fromEntries(
    Object.entries({ ...spec.options, help: HELP }).map(([name, o]) => [
      name,
      {
        type: o.type,
        ...(o.multiple ? { multiple: true } : {}),
        ...(o.short ? { short: o.short } : {}),
        ...(o.default !== undefined ? { default: o.default } : {}),
      },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(parseError(err as Error), usageText(spec));
  }
  if (parsed.values.help) {
    out(helpText(spec));
    return undefined;
  }
  const max = positionalCount(spec);
  if (parsed.positionals.length > max)
    throw new UsageError(
      `unexpected argument${parsed.positionals.length - max > 1 ? 's' : ''}: ${parsed.positionals.slice(max).join(' ')}`,
      usageText(spec),
    );
  return { values: parsed.values as Values<O>, positionals: parsed.positionals };
}

/** How many positionals the usage names (`OLD NEW` → 2, `[SUB]` → 1). */
function positionalCount(spec: CommandSpec): number {
  return (spec.args ?? '').split(/\s+/).filter((w) => /^\[?[A-Z]/.test(w)).length;
}

/** parseArgs' messages, shortened to what the user did wrong. */
function parseError(err: Error): string {
  const code = (err as { code?: string }).code;
  const opt = /'(-[^' ]*)/.exec(err.message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && opt) return `unknown option '${opt}'`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && opt)
    return /argument missing/.test(err.message)
      ? `option '${opt}' needs a value`
      : `option '${opt}' takes no value`;
  return err.message.split('\n')[0]!;
}

function flagOf(name: string, o: OptionSpec): string {
  const long = `--${name}${o.type === 'string' ? ` ${o.arg ?? 'VALUE'}` : ''}`;
  return o.short ? `-${o.short}, ${long}` : long;
}

/** Two columns: the left padded to the widest entry (at most 30), long help wrapped under it. */
function table(rows: [string, string][]): string[] {
  const width = Math.min(30, Math.max(...rows.map(([l]) => l.length)));
  const lines: string[] = [];
  for (const [left, right] of rows) {
    const wrapped = wrap(right, 96 - width - 4);
    if (left.length > width)
      lines.push(`  ${left}`, ...wrapped.map((w) => `  ${' '.repeat(width)}  ${w}`));
    else
      lines.push(
        `  ${left.padEnd(width)}  ${wrapped[0] ?? ''}`,
        ...wrapped.slice(1).map((w) => `  ${' '.repeat(width)}  ${w}`),
      );
  }
  return lines;
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

function optionRows(spec: CommandSpec): [string, string][] {
  return Object.entries({ ...spec.options, help: HELP }).map(([name, o]) => [
    flagOf(name, o),
    `${o.help}${typeof o.default === 'string' ? ` (default ${o.default})` : ''}`,
  ]);
}

/** The usage line and the options: printed with a usage error. */
export function usageText(spec: CommandSpec): string {
  return [
    `usage: harness ${spec.name}${spec.args ? ` ${spec.args}` : ''} [options]`,
    '',
    'options:',
    ...table(optionRows(spec)),
    '',
    `(harness ${spec.name} --help: the variables it reads, examples and exit codes)`,
    '',
  ].join('\n');
}

/** The whole help: usage, what it does, options, environment, examples, exit status. */
export function helpText(spec: CommandSpec): string {
  const lines = [
    `usage: harness ${spec.name}${spec.args ? ` ${spec.args}` : ''} [options]`,
    '',
    ...wrap(spec.summary, 98),
    ...(spec.about?.length ? ['', ...spec.about] : []),
  ];
  if (spec.subcommands?.length)
    lines.push(
      '',
      'subcommands (harness fuzz SUB --help for each):',
      ...table(spec.subcommands.map((s): [string, string] => [s.name, s.summary])),
    );
  lines.push('', 'options:', ...table(optionRows(spec)));
  lines.push(
    '',
    'environment:',
    ...(spec.env.length
      ? table(spec.env.map((v): [string, string] => [v, ENV_VARS[v]]))
      : ['  (none: everything comes from the command line)']),
  );
  lines.push('', 'examples:', ...spec.examples.map((e) => `  ${e}`));
  lines.push(
    '',
    'exit status:',
    ...table([
      ['0', spec.exit0 ?? 'done, nothing failed'],
      ['1', spec.exit1],
      ['2', spec.exit2 ? `${EXIT_2}; ${spec.exit2}` : EXIT_2],
    ]),
    '',
  );
  return lines.join('\n');
}
