/**
 * The one configuration module: environment variables, optionally preceded by an `--env-file`.
 * With `HARNESS_BASE_URL` unset the harness targets the embedded reference deployment and fills
 * in the credentials itself. Every secret read here is registered for redaction.
 *
 * Variables (all optional):
 *   HARNESS_BASE_URL             target deployment, e.g. https://staging.example.com (default: embedded)
 *   HARNESS_API_KEY              full-access key of workspace A
 *   HARNESS_READONLY_KEY         read-only key of workspace A
 *   HARNESS_OTHER_WORKSPACE_KEY  full-access key of a second workspace B (isolation checks)
 *   HARNESS_TEAM_KEYS / HARNESS_GROWTH_KEYS / HARNESS_ENTERPRISE_KEYS
 *                                comma-separated keys of one workspace per plan (load checks)
 *   HARNESS_WEBHOOK_URL          public URL that reaches the capture receiver (real deployments)
 *   HARNESS_WEBHOOK_SECRET       signing secret configured for that endpoint
 *   HARNESS_WEBHOOK_ENDPOINTS    YAML/JSON file of the endpoints set up in the dashboard (paths
 *                                under HARNESS_WEBHOOK_URL, events, secret_env, form)
 *   HARNESS_WEBHOOK_LISTEN       host:port the capture receiver binds (default 127.0.0.1:0)
 *   HARNESS_WEBHOOK_TLS_CERT / HARNESS_WEBHOOK_TLS_KEY  PEM files: the receiver speaks HTTPS
 *   HARNESS_WEBHOOK_RETRY_WAIT_MS  how long to wait for a retry after a 503 (default 60000)
 *   HARNESS_ADMIN_TOKEN          admin token (reference deployment only: rotation, clock control)
 *   HARNESS_FAULTS               faults for the embedded deployment (comma-separated)
 *   HARNESS_STRICT               1 = an assumption mismatch also fails the gate
 *   HARNESS_READ_ONLY            1 = only checks that write nothing (production)
 *   HARNESS_ALLOW_INSECURE       1 = allow plain HTTP to a non-loopback host, and on an https://
 *                                target skip certificate verification (self-signed staging); for
 *                                a private CA prefer NODE_EXTRA_CA_CERTS=ca.pem (core/target/tls-trust.ts)
 *   HARNESS_TIMEOUT_MS           per-request timeout (default 10000)
 *   HARNESS_RUN_MAX_SECONDS      time limit of a whole `harness run` (same as --max-seconds): the
 *                                area running then stops, the rest are marked error, every report
 *                                is written (default: none beyond each area's own limit)
 *   HARNESS_BASELINE             behaviour snapshot to compare the run with (default: the reference
 *                                deployment's, reports/baselines/; `off` to skip)
 *   HARNESS_COMPAT_FAIL_ON       ERR|WARN|INFO = a behaviour change at or above it fails the gate
 *                                (default: changes are reported, never fatal)
 */
import { readFileSync } from 'node:fs';
import { type Level, LEVELS } from './level.ts';
import { registerSecret } from './redact.ts';
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

/** HARNESS_RUN_MAX_SECONDS: a positive number of seconds, or unset. */
export function runMaxSeconds(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new ConfigError(
      `HARNESS_RUN_MAX_SECONDS must be a positive number of seconds, got '${raw}'`,
    );
  return n;
}

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * Builds the config from an environment (default `process.env`), validating every variable.
 * `apiKey: 'optional'` is for `harness load`, whose target needs plan keys only.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  o: { apiKey?: 'required' | 'optional' } = {},
): HarnessConfig {
  const baseUrl = env.HARNESS_BASE_URL
    ? checkUrl(env.HARNESS_BASE_URL, 'HARNESS_BASE_URL')
    : undefined;
  const timeoutMs = env.HARNESS_TIMEOUT_MS ? Number(env.HARNESS_TIMEOUT_MS) : 10_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 600_000) {
    throw new ConfigError(
      `HARNESS_TIMEOUT_MS must be an integer from 100 to 600000, got '${env.HARNESS_TIMEOUT_MS}'`,
    );
  }
  const cfg: HarnessConfig = {
    baseUrl,
    apiKey: env.HARNESS_API_KEY || undefined,
    readOnlyKey: env.HARNESS_READONLY_KEY || undefined,
    otherWorkspaceKey: env.HARNESS_OTHER_WORKSPACE_KEY || undefined,
    planKeys: {
      team: list(env.HARNESS_TEAM_KEYS ?? env.HARNESS_TEAM_KEY),
      growth: list(env.HARNESS_GROWTH_KEYS ?? env.HARNESS_GROWTH_KEY),
      enterprise: list(env.HARNESS_ENTERPRISE_KEYS ?? env.HARNESS_ENTERPRISE_KEY),
    },
    webhookUrl: env.HARNESS_WEBHOOK_URL
      ? checkUrl(env.HARNESS_WEBHOOK_URL, 'HARNESS_WEBHOOK_URL')
      : undefined,
    webhookSecret: env.HARNESS_WEBHOOK_SECRET || undefined,
    webhookEndpoints: [],
    webhookListen: parseListen(env.HARNESS_WEBHOOK_LISTEN),
    webhookTls: readTls(env.HARNESS_WEBHOOK_TLS_CERT, env.HARNESS_WEBHOOK_TLS_KEY),
    webhookRetryWaitMs: env.HARNESS_WEBHOOK_RETRY_WAIT_MS
      ? Number(env.HARNESS_WEBHOOK_RETRY_WAIT_MS)
      : 60_000,
    adminToken: env.HARNESS_ADMIN_TOKEN || undefined,
    faults: list(env.HARNESS_FAULTS),
    strict: flag(env.HARNESS_STRICT, 'HARNESS_STRICT'),
    readOnly: flag(env.HARNESS_READ_ONLY, 'HARNESS_READ_ONLY'),
    allowInsecure: flag(env.HARNESS_ALLOW_INSECURE, 'HARNESS_ALLOW_INSECURE'),
    timeoutMs,
    runMaxSeconds: runMaxSeconds(env.HARNESS_RUN_MAX_SECONDS),
    baseline: env.HARNESS_BASELINE || undefined,
    compatFailOn: compatFailOn(env.HARNESS_COMPAT_FAIL_ON),
  };
  if (!Number.isInteger(cfg.webhookRetryWaitMs) || cfg.webhookRetryWaitMs < 100)
    throw new ConfigError(
      `HARNESS_WEBHOOK_RETRY_WAIT_MS must be an integer ≥ 100, got '${env.HARNESS_WEBHOOK_RETRY_WAIT_MS}'`,
    );
  if (env.HARNESS_WEBHOOK_ENDPOINTS) {
    if (!cfg.webhookUrl)
      throw new ConfigError(
        'HARNESS_WEBHOOK_ENDPOINTS is set but HARNESS_WEBHOOK_URL is missing: the paths are appended to it',
      );
    try {
      cfg.webhookEndpoints = withSecrets(
        readEndpointsFile(env.HARNESS_WEBHOOK_ENDPOINTS),
        env,
        env.HARNESS_WEBHOOK_ENDPOINTS,
      );
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
  if (baseUrl && !cfg.apiKey && o.apiKey !== 'optional') {
    throw new ConfigError(
      'HARNESS_BASE_URL is set but HARNESS_API_KEY is missing: every v1 request needs a key',
    );
  }
  // Named secrets: a repro of a request sent with one says `$HARNESS_READONLY_KEY`, not a mask.
  registerSecret(cfg.apiKey, 'HARNESS_API_KEY');
  registerSecret(cfg.readOnlyKey, 'HARNESS_READONLY_KEY');
  registerSecret(cfg.otherWorkspaceKey, 'HARNESS_OTHER_WORKSPACE_KEY');
  registerSecret(cfg.webhookSecret, 'HARNESS_WEBHOOK_SECRET');
  registerSecret(cfg.adminToken, 'HARNESS_ADMIN_TOKEN');
  for (const e of cfg.webhookEndpoints) registerSecret(e.secret, e.secretEnv);
  // A plan key is one entry of a list variable: no variable holds it alone.
  for (const s of [
    cfg.webhookTls?.key,
    ...cfg.planKeys.team,
    ...cfg.planKeys.growth,
    ...cfg.planKeys.enterprise,
  ]) {
    registerSecret(s);
  }
  return cfg;
}
