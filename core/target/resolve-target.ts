/**
 * The target, resolved once per process from the config: a real deployment from the
 * `HARNESS_*` variables, or — with `HARNESS_BASE_URL` unset — the embedded reference deployment,
 * started on loopback with the options the caller needs and its seeded keys filled in. Starting
 * it is the caller's `start` (server/start.ts `startService`, handed down by the run floor:
 * core never imports server/). Contracts (per Playwright worker), load and fuzz all take the
 * result; the config itself is never changed. Every key and token it hands out is registered
 * for redaction.
 */
import { ConfigError, type HarnessConfig, type PlanName } from '../config.ts';
import { registerSecret } from '../redact.ts';
import { type AdminClient, adminClient } from './admin-client.ts';

export interface TargetKeys {
  /**
   * Full-access key of workspace A (the one the harness writes to). Absent only for a target
   * configured for load checks alone (`harness load`): read it with `fullKey`.
   */
  full?: string;
  /** Read-only key of workspace A. */
  readOnly?: string;
  /** Full-access key of a second workspace B (isolation checks). */
  otherWorkspace?: string;
  /** Keys of one workspace per plan (load checks); only plans with keys are present. */
  plans: Partial<Record<PlanName, string[]>>;
}

export interface ResolvedTarget {
  baseUrl: string;
  keys: TargetKeys;
  /** The admin surface: the embedded deployment's, or a reference deployment's given a token. */
  admin?: AdminClient;
  /** The embedded deployment this process started, if it did. */
  service?: EmbeddedDeployment;
  /** Stops what this process started (the embedded deployment); a no-op for a real target. */
  close(): Promise<void>;
}

/** What the harness asks of a reference deployment it starts (server/app.ts has them all). */
export interface EmbeddedServiceOptions {
  faults: readonly string[];
  /** Service seconds per real second. */
  timeScale?: number;
  /** Webhook retry schedule (base delays, ms) and attempt timeout. */
  webhookRetryDelaysMs?: number[];
  webhookTimeoutMs?: number;
  /** Limits of the seeded Enterprise workspace. */
  enterprise?: { ratePerMin: number; burst: number };
}

/** A started reference deployment as the harness uses it (server/start.ts `RunningService`). */
export interface EmbeddedDeployment {
  baseUrl: string;
  credentials: {
    adminToken: string;
    workspaces: Record<
      PlanName | 'other',
      {
        id: string;
        burst: number;
        /** The seeded workspace's plan and requests per minute (declared plans of its keys). */
        plan?: PlanName;
        rate?: number;
        keys: { full: string; full2: string; readOnly: string };
      }
    >;
  };
  close(): Promise<void>;
}

/** Starts the reference deployment on loopback: server/start.ts `startService`. */
export type StartEmbedded = (o: EmbeddedServiceOptions) => Promise<EmbeddedDeployment>;

/** How to start the embedded deployment, when there is no configured target. */
export interface EmbeddedOptions extends Omit<EmbeddedServiceOptions, 'faults'> {
  /** Workspace A: growth (room for a whole contract suite) or enterprise (limits set by the caller). */
  workspace?: 'growth' | 'enterprise';
  /** Plans whose two keys the load checks get. Default team and growth. */
  plans?: readonly PlanName[];
  /** How to start it; without it only a configured target (HARNESS_BASE_URL) can be resolved. */
  start?: StartEmbedded;
}

export async function resolveTarget(
  cfg: HarnessConfig,
  embedded: EmbeddedOptions = {},
): Promise<ResolvedTarget> {
  if (cfg.baseUrl) return configuredTarget(cfg);
  const { workspace = 'growth', plans = ['team', 'growth'], start, ...service } = embedded;
  if (!start)
    throw new ConfigError('HARNESS_BASE_URL is unset and no reference deployment can start here');
  const svc = await start({ ...service, faults: cfg.faults });
  const w = svc.credentials.workspaces;
  // The keys the run uses, under the variables `npm run serve`'s credentials file gives them.
  registerSecret(w[workspace].keys.full, 'HARNESS_API_KEY');
  registerSecret(w[workspace].keys.readOnly, 'HARNESS_READONLY_KEY');
  registerSecret(w.other.keys.full, 'HARNESS_OTHER_WORKSPACE_KEY');
  registerSecret(svc.credentials.adminToken, 'HARNESS_ADMIN_TOKEN');
  for (const ws of Object.values(w)) for (const k of Object.values(ws.keys)) registerSecret(k);
  return {
    baseUrl: svc.baseUrl,
    keys: {
      full: w[workspace].keys.full,
      readOnly: w[workspace].keys.readOnly,
      otherWorkspace: w.other.keys.full,
      plans: Object.fromEntries(plans.map((p) => [p, [w[p].keys.full, w[p].keys.full2]])),
    },
    admin: adminClient(svc.baseUrl, svc.credentials.adminToken),
    service: svc,
    close: () => svc.close(),
  };
}

function configuredTarget(cfg: HarnessConfig): ResolvedTarget {
  const plans: TargetKeys['plans'] = {};
  for (const p of ['team', 'growth', 'enterprise'] as const)
    if (cfg.planKeys[p].length > 0) plans[p] = cfg.planKeys[p];
  return {
    baseUrl: cfg.baseUrl!,
    keys: {
      ...(cfg.apiKey ? { full: cfg.apiKey } : {}),
      ...(cfg.readOnlyKey ? { readOnly: cfg.readOnlyKey } : {}),
      ...(cfg.otherWorkspaceKey ? { otherWorkspace: cfg.otherWorkspaceKey } : {}),
      plans,
    },
    ...(cfg.adminToken ? { admin: adminClient(cfg.baseUrl!, cfg.adminToken) } : {}),
    close: async () => {},
  };
}

/** The full-access key of workspace A; a configuration error when the target has none. */
export function fullKey(t: Pick<ResolvedTarget, 'keys'>): string {
  if (!t.keys.full)
    throw new ConfigError('HARNESS_API_KEY is missing: every v1 request of this check needs a key');
  return t.keys.full;
}

/** Runs `fn` on the resolved target and always closes it. */
export async function withTarget<T>(
  cfg: HarnessConfig,
  embedded: EmbeddedOptions,
  fn: (t: ResolvedTarget) => Promise<T>,
): Promise<T> {
  const t = await resolveTarget(cfg, embedded);
  try {
    return await fn(t);
  } finally {
    await t.close();
  }
}

/** Names of the credentials a test can require; see `missingCredential`. */
export type Credential = 'apiKey' | 'readOnlyKey' | 'otherWorkspaceKey' | 'adminToken' | 'webhook';

const CREDENTIAL_HINT: Record<Credential, string> = {
  apiKey: 'HARNESS_API_KEY (a full-access key)',
  readOnlyKey: 'HARNESS_READONLY_KEY (a read-only key of the same workspace)',
  otherWorkspaceKey: 'HARNESS_OTHER_WORKSPACE_KEY (a key of a second workspace)',
  adminToken: 'HARNESS_ADMIN_TOKEN (reference deployment admin surface)',
  webhook:
    'HARNESS_WEBHOOK_URL (a public URL reaching the capture receiver) with HARNESS_WEBHOOK_SECRET or HARNESS_WEBHOOK_ENDPOINTS',
};

/** The reason a test cannot run on `t`, or undefined when it has every credential `needs`. */
export function missingCredential(
  t: Pick<ResolvedTarget, 'keys' | 'admin'>,
  cfg: Pick<HarnessConfig, 'webhookUrl' | 'webhookEndpoints'>,
  needs: readonly Credential[],
): string | undefined {
  const has: Record<Credential, boolean> = {
    apiKey: Boolean(t.keys.full),
    readOnlyKey: Boolean(t.keys.readOnly),
    otherWorkspaceKey: Boolean(t.keys.otherWorkspace),
    adminToken: Boolean(t.admin),
    // Webhooks are reachable through the admin surface (reference) or a user-given public URL.
    webhook: Boolean(t.admin || (cfg.webhookUrl && cfg.webhookEndpoints.length > 0)),
  };
  const missing = needs.filter((n) => !has[n]);
  if (missing.length === 0) return undefined;
  return `not run: needs ${missing.map((m) => CREDENTIAL_HINT[m]).join(', ')}`;
}
