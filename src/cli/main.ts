/**
 * `harness <command> [...args]` — the one CLI. Each command lives in its own file under
 * `commands/` and exports `run(argv): Promise<number>` (the exit status). Commands are loaded
 * lazily so `harness diff-spec` never pays for Playwright or the server.
 */
const commands: Record<string, { file: string; summary: string }> = {
  run: {
    file: './commands/run.ts',
    summary: 'contract suite + probes + load + fuzz, then reports (npm start)',
  },
  serve: { file: './commands/serve.ts', summary: 'start the reference deployment on 127.0.0.1' },
  load: {
    file: './commands/load.ts',
    summary: 'plan-limit load checks (--plan team|growth|enterprise|all)',
  },
  fuzz: {
    file: './commands/fuzz.ts',
    summary: 'signature/receiver fuzzing (fuzz receiver --url URL --secret-env NAME)',
  },
  'diff-spec': {
    file: './commands/diff-spec.ts',
    summary: 'breaking-change report between two OpenAPI specs',
  },
  compare: { file: './commands/compare.ts', summary: 'diff two behaviour snapshots' },
  detect: {
    file: './commands/detect.ts',
    summary: 'detection matrix: each fault of the catalogue vs its named check',
  },
};

function usage(): string {
  const rows = Object.entries(commands).map(([n, c]) => `  ${n.padEnd(10)} ${c.summary}`);
  return `usage: harness <command> [options]\n\ncommands:\n${rows.join('\n')}\n`;
}

const [name, ...rest] = process.argv.slice(2);
if (!name || name === '--help' || name === '-h' || name === 'help') {
  process.stdout.write(usage());
  process.exit(name ? 0 : 2);
}
const entry = commands[name];
if (!entry) {
  process.stderr.write(`harness: unknown command '${name}'\n\n${usage()}`);
  process.exit(2);
}
const { runCommand } = await import('./run-command.ts');
await runCommand(
  name,
  () => import(entry.file) as Promise<{ run: (argv: string[]) => Promise<number> }>,
  rest,
);
