/**
 * The one list of `harness` commands: name, the file that implements it (loaded lazily, so
 * `harness diff-spec` never pays for Playwright or the server), and one line for `harness --help`.
 * Each command file exports `spec` (its options, variables, examples, exit codes: command-spec.ts)
 * and `run(argv)`; a wing's command that needs the reference deployment or the example receiver
 * gets them here, the run floor being the only one that imports server/ and examples/.
 */
import type { CommandSpec } from '../core/cli/command-spec.ts';

export interface CommandModule {
  spec: CommandSpec;
  run: (argv: string[]) => Promise<number>;
}

export const COMMANDS: Record<string, { load: () => Promise<CommandModule>; summary: string }> = {
  run: {
    load: () => import('./commands/run.ts'),
    summary: 'contract suite + probes + load + fuzz, then reports (npm start)',
  },
  serve: {
    load: () => import('./commands/serve.ts'),
    summary: 'start the reference deployment on 127.0.0.1',
  },
  load: {
    load: async () => {
      const [c, { startService }] = await Promise.all([
        import('../load/command.ts'),
        import('../server/start.ts'),
      ]);
      return { spec: c.spec, run: (argv) => c.run(argv, startService) };
    },
    summary: 'plan-limit load checks (--plan team|growth|enterprise|all)',
  },
  fuzz: {
    load: async () => {
      const [c, { startService }, { createReceiver }] = await Promise.all([
        import('../fuzz/command.ts'),
        import('../server/start.ts'),
        import('../examples/receiver/receiver.ts'),
      ]);
      const wiring = { start: startService, exampleReceiver: createReceiver };
      return { spec: c.spec, run: (argv) => c.run(argv, wiring) };
    },
    summary: 'signature, receiver, delivery and API-input fuzzing (fuzz SUB --help)',
  },
  'diff-spec': {
    load: () => import('../compat/commands/diff-spec.ts'),
    summary: 'breaking-change report between two OpenAPI specs',
  },
  compare: {
    load: () => import('../compat/commands/compare.ts'),
    summary: 'diff two behaviour snapshots',
  },
  detect: {
    load: () => import('./commands/detect.ts'),
    summary: 'detection matrix: each fault of the catalogue vs its named check',
  },
};

/** `harness --help`: the commands and the exit statuses they share. */
export function topUsage(): string {
  const rows = Object.entries(COMMANDS).map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`);
  return [
    'usage: harness <command> [options]     (harness <command> --help for each)',
    '',
    'commands:',
    ...rows,
    '',
    'exit status (every command):',
    '  0  done, nothing failed',
    '  1  a documented rule failed (run), a finding at or above --fail-on (diff-spec, compare),',
    '     a verdict or property failed (load, fuzz), a fault went unnoticed (detect)',
    '  2  could not run: usage error, configuration error, unreadable input, unreachable target;',
    "     or could not look (run): the target's answers kept a documented rule from being checked",
    '',
  ].join('\n');
}
