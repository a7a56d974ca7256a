/**
 * Writes the seeded credentials where only the current user can read them (dir 0700, file 0600),
 * as JSON and as an env file the harness reads with `--env-file`. Keys are never printed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Credentials } from './seed.ts';

export function credentialsEnv(
  baseUrl: string,
  c: Credentials,
  /**
   * Dashboard mode: no admin token; the webhook variables (and endpoint secrets) instead.
   * `apiPlan`: the workspace whose keys are HARNESS_API_KEY / HARNESS_READONLY_KEY (default team).
   */
  extra?: { admin: boolean; lines: string[]; apiPlan?: 'team' | 'growth' },
): string {
  const w = c.workspaces;
  const a = w[extra?.apiPlan ?? 'team'];
  const lines = [
    `HARNESS_BASE_URL=${baseUrl}`,
    ...(extra?.admin === false ? [] : [`HARNESS_ADMIN_TOKEN=${c.adminToken}`]),
    `HARNESS_API_KEY=${a.keys.full}`,
    `HARNESS_READONLY_KEY=${a.keys.readOnly}`,
    `HARNESS_OTHER_WORKSPACE_KEY=${w.other.keys.full}`,
    `HARNESS_TEAM_KEYS=${w.team.keys.full},${w.team.keys.full2}`,
    `HARNESS_GROWTH_KEYS=${w.growth.keys.full},${w.growth.keys.full2}`,
    `HARNESS_ENTERPRISE_KEYS=${w.enterprise.keys.full},${w.enterprise.keys.full2}`,
    ...(extra?.lines ?? []),
  ];
  return `${lines.join('\n')}\n`;
}

export function writeCredentialsFiles(
  baseUrl: string,
  c: Credentials,
  extra?: { admin: boolean; lines: string[]; apiPlan?: 'team' | 'growth' },
): { json: string; env: string } {
  const dir = mkdtempSync(join(tmpdir(), 'support-ticketing-'));
  const json = join(dir, 'credentials.json');
  const env = join(dir, 'credentials.env');
  writeFileSync(json, `${JSON.stringify({ baseUrl, ...c }, null, 2)}\n`, { mode: 0o600 });
  writeFileSync(env, credentialsEnv(baseUrl, c, extra), { mode: 0o600 });
  return { json, env };
}
