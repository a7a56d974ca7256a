/**
 * The one configuration module. `loadConfig(env, flags)` reads the `HARNESS_*` variables
 * (after an optional `--env-file`) and the command line's flags once per invocation, validates
 * each with a clear message and registers every secret for redaction; child processes get the
 * result (core/resolved-config.ts), never the environment to parse again. With
 * `HARNESS_BASE_URL` unset the harness targets the embedded reference deployment and fills in
 * the credentials itself.
 *
 * Every variable it and the rest of the harness read is in the one table of core/variables.ts.
 */
import { readFileSync } from 'node:fs';
import { type Level, LEVELS } from './level.ts';
import { registerSecret } from './redact.ts';
import type { EnvVar } from './variables.ts';
import {
  type DashboardEndpoint,
  EndpointsFileError,
  TRIGGERABLE_EVENTS,
  readEndpointsFile,
  withSecrets,
} from './webhooks/endpoints-file.ts';

/** The plans whose limits the load checks measure (load/lib/plans.ts names the same three). */
export type PlanName = 'team' | 'growth' | 'enterprise';

export interface HarnessConfig {
  /** undefined = the embedded reference deployment. */
  baseUrl?: string;
  apiKey?: string;
  readOnlyKey?: string;
  otherWorkspaceKey?: string;
  planKeys: Record<PlanName, string[]>;
  webhookUrl?: string;
  webhookSecret?: string;
  /** Dashboard-configured endpoints under webhookUrl (file, or the URL alone as one endpoint). */
  webhookEndpoints: DashboardEndpoint[];
  /** Where the capture receiver listens (may differ from the public webhookUrl). */
  webhookListen: { host: string; port: number };
  webhookTls?: { cert: string; key: string };
  webhookRetryWaitMs: number;
  adminToken?: string;
  faults: string[];
  strict: boolean;
  readOnly: boolean;
  allowInsecure: boolean;
  timeoutMs: number;
  /** Time limit of a whole run, seconds (HARNESS_RUN_MAX_SECONDS); undefined: none. */
  runMaxSeconds?: number;
  /** HARNESS_BASELINE as given (undefined: the reference baseline). */
  baseline?: string;
  /** The lowest level of behaviour change that fails the gate; undefined: none does. */
  compatFailOn?: Level;
  /** The Enterprise plan's contracted limits, when given (else `harness load` reads the headers). */
  enterpriseLimits: { ratePerMin?: number; burst?: number };
  /**
   * Requests of the key's Remaining a run leaves for others (HARNESS_RESERVE, `--reserve`):
   * pacing waits rather than spend below it. undefined: 20 % of the key's burst.
   */
  reserve?: number;
  /**
   * API input cases per operation of the fuzz area (HARNESS_FUZZ_CASES, `--fuzz-cases`); the
   * class sampler always runs whole. undefined: the full fuzz, or the gate-sized one on a Team key.
   */
  fuzzCases?: number;
  /**
   * Requests the run may send (HARNESS_MAX_REQUESTS, `--max-requests`): the fuzz shrinks first,
   * then contract tests that do not fit are listed as not run (run/max-requests.ts).
   */
  maxRequests?: number;
  /**
   * Observed, never configured: the ticket list ignores `limit` — the preflight's
   * `GET /v1/tickets?limit=1` answered `rows` tickets in `bytes` bytes (run/preflight.ts), and
   * named a next page (`paged`) or none (not paged at all: `cursor` is read by nobody either).
   * Each read of it answers the whole workspace, every ticket earlier runs left included: the run
   * reads it only where a judgement needs a new answer, and sends no parameter it would ignore.
   */
  listIgnoresLimit?: { rows: number; bytes: number; paged: boolean };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses KEY=VALUE lines (# comments, optional quotes, optional `export `). */
export function parseEnvFile(text: string, path = 'env file'): Record<string, string> {
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) throw new ConfigError(`${path}:${i + 1}: expected KEY=VALUE`);
    let value = m[2]!;
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    out[m[1]!] = value;
  });
  return out;
}

export function readEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new ConfigError(
      code === 'ENOENT'
        ? `--env-file ${path}: no such file`
        : code === 'EISDIR'
          ? `--env-file ${path}: is a directory, not a file`
          : `cannot read --env-file ${path}: ${(e as Error).message}`,
    );
  }
  return parseEnvFile(text, path);
}

const flag = (v: string | undefined, name: string): boolean => {
  if (v === undefined || v === '') return false;
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new ConfigError(`${name} must be 1/0 (or true/false), got '${v}'`);
};

const list = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function checkUrl(v: string, name: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(
      `${name} is not a URL: '${v}' (expected e.g. https://staging.example.com)`,
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new ConfigError(`${name} must be http(s), got '${u.protocol}'`);
  }
  return v.replace(/\/+$/, '');
}

/** `host:port` (IPv6 in brackets) of HARNESS_WEBHOOK_LISTEN; default 127.0.0.1:0. */
export function parseListen(v: string | undefined): { host: string; port: number } {
  if (!v) return { host: '127.0.0.1', port: 0 };
  const m = /^(\[[0-9a-fA-F:]+\]|[^:\s]+):(\d{1,5})$/.exec(v.trim());
  const port = m ? Number(m[2]) : Number.NaN;
  if (!m || port > 65535)
    throw new ConfigError(
      `HARNESS_WEBHOOK_LISTEN must be host:port (e.g. 0.0.0.0:8099 or 127.0.0.1:0), got '${v}'`,
    );
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

function readTls(
  certFile: string | undefined,
  keyFile: string | undefined,
): { cert: string; key: string } | undefined {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile)
    throw new ConfigError(
      'HARNESS_WEBHOOK_TLS_CERT and HARNESS_WEBHOOK_TLS_KEY go together (PEM files)',
    );
  try {
    return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
  } catch (e) {
    throw new ConfigError(`cannot read the receiver's TLS files: ${(e as Error).message}`);
  }
}

function compatFailOn(raw: string | undefined): Level | undefined {
  if (!raw || raw.toLowerCase() === 'off') return undefined;
  const level = raw.toUpperCase() as Level;
  if (!LEVELS.includes(level))
    throw new ConfigError(`HARNESS_COMPAT_FAIL_ON must be ERR, WARN, INFO or off, got '${raw}'`);
  return level;
}

/** A positive number (`of` says of what, e.g. ' of seconds'), or unset. */
function positive(raw: string | undefined, name: string, of = ''): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new ConfigError(`${name} must be a positive number${of}, got '${raw}'`);
  return n;
}

/** A whole number of at least `min` (requests, cases), else undefined when unset. */
function count(raw: string | undefined, name: string, min: number): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || n < min)
    throw new ConfigError(`${name} must be a whole number ≥ ${min}, got '${raw}'`);
  return n;
}

/**
 * What a command line sets beside the variables; a flag wins over its variable and is validated
 * the same way (with the same message).
 */
export interface ConfigFlags {
  /** `--base-url`, `--url`; `null`: the embedded deployment, whatever HARNESS_BASE_URL says. */
  baseUrl?: string | null;
  /** `--fault`, `--strict`, `--max-seconds`. */
  faults?: readonly string[];
  strict?: boolean;
  runMaxSeconds?: number;
  /** `--api-key-env NAME`, `--admin-token-env NAME`: the variables holding the key / token. */
  apiKeyVar?: string;
  adminTokenVar?: string;
  /** `--endpoints FILE`, `--receiver-url URL`, `--receiver-listen HOST:PORT` (harness fuzz). */
  webhookEndpoints?: string;
  webhookUrl?: string;
  webhookListen?: string;
  /** `--reserve N`, `--fuzz-cases N` (harness run). */
  reserve?: number;
  fuzzCases?: number;
  maxRequests?: number;
  /** `optional` for `harness load`, whose target needs plan keys only. */
  apiKey?: 'required' | 'optional';
}

/**
 * Builds the config once from an environment (default `process.env`) and the command line's
 * flags, validating every value.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  flags: ConfigFlags = {},
): HarnessConfig {
  const set = (v: unknown) => v !== undefined;
  // The flags over the variables they stand for: one validation, one message per setting.
  const over: Partial<Record<EnvVar, string | undefined>> = {
    ...(set(flags.baseUrl) ? { HARNESS_BASE_URL: flags.baseUrl ?? undefined } : {}),
    ...(flags.faults ? { HARNESS_FAULTS: flags.faults.join(',') } : {}),
    ...(flags.strict ? { HARNESS_STRICT: '1' } : {}),
    ...(set(flags.runMaxSeconds) ? { HARNESS_RUN_MAX_SECONDS: String(flags.runMaxSeconds) } : {}),
    ...(set(flags.reserve) ? { HARNESS_RESERVE: String(flags.reserve) } : {}),
    ...(set(flags.fuzzCases) ? { HARNESS_FUZZ_CASES: String(flags.fuzzCases) } : {}),
    ...(set(flags.maxRequests) ? { HARNESS_MAX_REQUESTS: String(flags.maxRequests) } : {}),
    ...(flags.apiKeyVar ? { HARNESS_API_KEY: env[flags.apiKeyVar] } : {}),
    ...(flags.adminTokenVar ? { HARNESS_ADMIN_TOKEN: env[flags.adminTokenVar] } : {}),
    ...(flags.webhookEndpoints ? { HARNESS_WEBHOOK_ENDPOINTS: flags.webhookEndpoints } : {}),
    ...(flags.webhookUrl ? { HARNESS_WEBHOOK_URL: flags.webhookUrl } : {}),
    ...(flags.webhookListen ? { HARNESS_WEBHOOK_LISTEN: flags.webhookListen } : {}),
  };
  const v = (
    name: EnvVar | 'HARNESS_TEAM_KEY' | 'HARNESS_GROWTH_KEY' | 'HARNESS_ENTERPRISE_KEY',
  ) => (name in over ? over[name as EnvVar] : env[name]);
  const rawUrl = v('HARNESS_BASE_URL');
  const baseUrl = rawUrl ? checkUrl(rawUrl, 'HARNESS_BASE_URL') : undefined;
  const webhookUrl = v('HARNESS_WEBHOOK_URL');
  const timeoutMs = v('HARNESS_TIMEOUT_MS') ? Number(v('HARNESS_TIMEOUT_MS')) : 10_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 600_000) {
    throw new ConfigError(
      `HARNESS_TIMEOUT_MS must be an integer from 100 to 600000, got '${v('HARNESS_TIMEOUT_MS')}'`,
    );
  }
  const cfg: HarnessConfig = {
    baseUrl,
    apiKey: v('HARNESS_API_KEY') || undefined,
    readOnlyKey: v('HARNESS_READONLY_KEY') || undefined,
    otherWorkspaceKey: v('HARNESS_OTHER_WORKSPACE_KEY') || undefined,
    planKeys: {
      team: list(v('HARNESS_TEAM_KEYS') ?? v('HARNESS_TEAM_KEY')),
      growth: list(v('HARNESS_GROWTH_KEYS') ?? v('HARNESS_GROWTH_KEY')),
      enterprise: list(v('HARNESS_ENTERPRISE_KEYS') ?? v('HARNESS_ENTERPRISE_KEY')),
    },
    webhookUrl: webhookUrl ? checkUrl(webhookUrl, 'HARNESS_WEBHOOK_URL') : undefined,
    webhookSecret: v('HARNESS_WEBHOOK_SECRET') || undefined,
    webhookEndpoints: [],
    webhookListen: parseListen(v('HARNESS_WEBHOOK_LISTEN')),
    webhookTls: readTls(v('HARNESS_WEBHOOK_TLS_CERT'), v('HARNESS_WEBHOOK_TLS_KEY')),
    webhookRetryWaitMs: v('HARNESS_WEBHOOK_RETRY_WAIT_MS')
      ? Number(v('HARNESS_WEBHOOK_RETRY_WAIT_MS'))
      : 60_000,
    adminToken: v('HARNESS_ADMIN_TOKEN') || undefined,
    faults: list(v('HARNESS_FAULTS')),
    strict: flag(v('HARNESS_STRICT'), 'HARNESS_STRICT'),
    readOnly: flag(v('HARNESS_READ_ONLY'), 'HARNESS_READ_ONLY'),
    allowInsecure: flag(v('HARNESS_ALLOW_INSECURE'), 'HARNESS_ALLOW_INSECURE'),
    timeoutMs,
    runMaxSeconds: positive(v('HARNESS_RUN_MAX_SECONDS'), 'HARNESS_RUN_MAX_SECONDS', ' of seconds'),
    baseline: v('HARNESS_BASELINE') || undefined,
    compatFailOn: compatFailOn(v('HARNESS_COMPAT_FAIL_ON')),
    enterpriseLimits: {
      ratePerMin: positive(v('HARNESS_ENTERPRISE_RATE'), 'HARNESS_ENTERPRISE_RATE'),
      burst: positive(v('HARNESS_ENTERPRISE_BURST'), 'HARNESS_ENTERPRISE_BURST'),
    },
    reserve: count(v('HARNESS_RESERVE'), 'HARNESS_RESERVE', 0),
    fuzzCases: count(v('HARNESS_FUZZ_CASES'), 'HARNESS_FUZZ_CASES', 1),
    maxRequests: count(v('HARNESS_MAX_REQUESTS'), 'HARNESS_MAX_REQUESTS', 1),
  };
  if (!Number.isInteger(cfg.webhookRetryWaitMs) || cfg.webhookRetryWaitMs < 100)
    throw new ConfigError(
      `HARNESS_WEBHOOK_RETRY_WAIT_MS must be an integer ≥ 100, got '${v('HARNESS_WEBHOOK_RETRY_WAIT_MS')}'`,
    );
  if (v('HARNESS_WEBHOOK_ENDPOINTS')) {
    if (!cfg.webhookUrl)
      throw new ConfigError(
        'HARNESS_WEBHOOK_ENDPOINTS is set but HARNESS_WEBHOOK_URL is missing: the paths are appended to it',
      );
    try {
      const file = v('HARNESS_WEBHOOK_ENDPOINTS')!;
      cfg.webhookEndpoints = withSecrets(readEndpointsFile(file), env, file);
    } catch (e) {
      if (e instanceof EndpointsFileError) throw new ConfigError(e.message);
      throw e;
    }
  } else if (cfg.webhookUrl && cfg.webhookSecret) {
    // The URL alone: one endpoint subscribed to everything the harness triggers, form unknown.
    cfg.webhookEndpoints = [
      {
        path: '',
        events: [...TRIGGERABLE_EVENTS],
        secretEnv: 'HARNESS_WEBHOOK_SECRET',
        secret: cfg.webhookSecret,
        form: 'unknown',
      },
    ];
  }
  if (baseUrl && cfg.faults.length > 0) {
    throw new ConfigError(
      'HARNESS_FAULTS only applies to the embedded deployment; unset HARNESS_BASE_URL',
    );
  }
  if (baseUrl && !cfg.apiKey && flags.apiKey !== 'optional') {
    throw new ConfigError(
      'HARNESS_BASE_URL is set but HARNESS_API_KEY is missing: every v1 request needs a key',
    );
  }
  registerConfigSecrets(cfg);
  return cfg;
}

/**
 * Registers every secret of `cfg` for redaction: named ones, so a repro of a request sent with
 * one says `$HARNESS_READONLY_KEY`, not a mask. A child process calls it for the configuration
 * it was handed (core/resolved-config.ts).
 */
export function registerConfigSecrets(cfg: HarnessConfig): void {
  registerSecret(cfg.apiKey, 'HARNESS_API_KEY');
  registerSecret(cfg.readOnlyKey, 'HARNESS_READONLY_KEY');
  registerSecret(cfg.otherWorkspaceKey, 'HARNESS_OTHER_WORKSPACE_KEY');
  registerSecret(cfg.webhookSecret, 'HARNESS_WEBHOOK_SECRET');
  registerSecret(cfg.adminToken, 'HARNESS_ADMIN_TOKEN');
  for (const e of cfg.webhookEndpoints) registerSecret(e.secret, e.secretEnv);
  // A plan key is one entry of a list variable: no variable holds it alone.
  for (const s of [cfg.webhookTls?.key, ...Object.values(cfg.planKeys).flat()]) registerSecret(s);
}
