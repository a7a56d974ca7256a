/**
 * Playwright fixtures of the contract suite, in one file:
 *   target    (worker)  the deployment under test: the URL given by the environment, or an embedded
 *                       reference deployment started for this worker (with HARNESS_FAULTS / the
 *                       project's `faults` option), plus the capture receiver for webhooks
 *   api       (test)    typed, recording client with the full-access key of workspace A, paced
 *                       by the key's rate budget (core/http/rate-budget.ts); a 429 it cannot
 *                       wait out ends the test as not run, "inconclusive", never as a failure
 *   history   (worker)  what this worker's clients received, for the rate-limit sequence checks
 *   verdict   (test)    named checks; at the end every exchange gets the suite-wide checks (and
 *                       the sequence checks over `history`), and a broken documented rule fails
 *                       the test (assumed ones: only in strict mode)
 *   needs     (test)    declares credentials; skips the test with a reason when one is absent
 *   probe     (test)    records an observed gap value (U-table) for snapshot.json
 *   notReached (test)   records a cell of the rule × operation matrix this target cannot reach,
 *                       and why (report/rule-matrix.ts)
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test as base } from '@playwright/test';
import { checks } from '../core/checks/index.ts';
import type { Exchange } from '../core/checks/types.ts';
import { Verdict } from '../core/checks/verdict.ts';
import { ApiClient } from '../core/http/api-client.ts';
import { rateTrace } from '../core/checks/catalogue/rate-limit-values.ts';
import { createClient } from '../core/http/client.ts';
import { type CreatedObject, createdBy, ticketStateBy } from '../core/http/created-ledger.ts';
import {
  configureRateBudgets,
  processRateStats,
  processWaits,
  rateBudget,
} from '../core/http/rate-budget.ts';
import { addReadStats, processReadStats } from '../core/http/read-tally.ts';
import { type CreatedRecord, cleanUp, discarded } from '../core/target/clean-up.ts';
import { loggableExchange } from '../core/http/exchange-log.ts';
import { boundedValue } from '../core/shown.ts';
import { notePulse } from './transport-pulse.ts';
import { type HarnessConfig, loadConfig } from '../core/config.ts';
import { type Resolved, readResolved } from '../core/resolved-config.ts';
import { registerSecret } from '../core/redact.ts';
import { appendJsonl } from '../core/output-dir.ts';
import type { AdminClient } from '../core/target/admin-client.ts';
import { type PlanOf, declaredPlans } from '../core/target/declared-plans.ts';
import {
  type EmbeddedDeployment,
  fullKey,
  type Credential,
  missingCredential,
  type ResolvedTarget,
  resolveTarget,
  type StartEmbedded,
  type TargetKeys,
} from '../core/target/resolve-target.ts';
import { CaptureReceiver, type CapturedDelivery } from '../core/webhooks/capture-receiver.ts';
import type { EndpointForm } from '../core/signature/forms.ts';
import type { DashboardEndpoint } from '../core/webhooks/endpoints-file.ts';
import { type ReceiverView, localView, remoteView } from '../core/webhooks/shared-receiver.ts';
import { generateSelfSignedCert } from '../core/webhooks/self-signed.ts';
import { ledgerActionOf, ledgerWorkspace } from '../core/webhooks/delivery-ledger.ts';
import { deliveryRow } from './delivery-rows.ts';
import { BORROWED_REQUESTS, FAILED_BY_CHECKS, KEPT_BY_TARGET } from './annotations.ts';
import { playwrightOutDir } from './playwright-output.ts';
import { playwrightTransport } from './playwright-transport.ts';
import type { RetryProbe } from './retry-probe.ts';

/**
 * What this run resolved once — its harness's configuration file, or the one the global setup
 * wrote — its raw-file directory and run id; read on first use (in a worker, not when the runner
 * collects the tests).
 */
let theRun: { resolved: Resolved; rawDir: string; id: string } | undefined;
function run() {
  if (!theRun) {
    const resolved = readResolved() ?? { config: loadConfig() };
    theRun = {
      resolved,
      rawDir: join(playwrightOutDir(resolved.suite), 'raw'),
      id: resolved.suite?.runId ?? resolved.shared?.runId ?? randomBytes(4).toString('hex'),
    };
  }
  return theRun;
}

export interface Subscription {
  endpointId?: string;
  path: string;
  secret: string;
  /** The variable the secret comes from (dashboard endpoints), as delivery repros name it. */
  secretEnv?: string;
  events: string[];
  /** The header form(s) the endpoint was set up with; `unknown` = observe only (U15). */
  form: EndpointForm;
  /** The URL of the receiver its deliveries arrive at (public; the endpoint adds `path`). */
  receiverUrl: string;
  deliveries(): Promise<CapturedDelivery[]>;
  /** Resolves once `pred` holds over this endpoint's deliveries; rejects after `timeoutMs`. */
  waitFor(
    pred: (d: CapturedDelivery[]) => boolean,
    timeoutMs?: number,
  ): Promise<CapturedDelivery[]>;
}

export interface Target {
  /** The user's settings (strict, read-only, webhook endpoints, timeouts); never changed. */
  cfg: HarnessConfig;
  baseUrl: string;
  /** Keys of the target: the configured ones, or the embedded deployment's seeded ones. */
  keys: TargetKeys;
  /** The target as resolved once for this worker (core/target/resolve-target.ts). */
  resolved: ResolvedTarget;
  embedded?: EmbeddedDeployment;
  /** The run's capture receiver (this worker's own, or the run's shared one). */
  receiver: ReceiverView;
  /** The URL the deployment delivers to (public; may differ from the listen address). */
  receiverUrl: string;
  /** Endpoints come from the user's dashboard (no admin surface to create them). */
  dashboard: boolean;
  /** Admin surface call (reference deployments only). */
  admin: AdminClient['call'];
  /**
   * An endpoint receiving `events`: created through the admin surface, or — on a dashboard-
   * configured deployment — the configured endpoint subscribed to all of them (the widest one).
   * A string is the reason no such endpoint exists (the test is then not run).
   */
  subscribe(opts: {
    events: string[];
    form?: 'prefixed' | 'plain' | 'both';
    /**
     * An HTTPS endpoint: on a reference deployment this worker's own HTTPS receiver (a
     * certificate of its own, which the endpoint is registered as trusted by); on a dashboard,
     * a configured endpoint when the public webhook URL is HTTPS.
     */
    https?: boolean;
  }): Promise<Subscription | string>;
  /** A subscription for one configured dashboard endpoint. */
  endpoint(e: DashboardEndpoint): Subscription;
  /** Lookup of a key's workspace id and key id (reference deployments only). */
  lookupKey: AdminClient['lookupKey'];
  /** Objects this worker created on the target (closed or deleted at the end on real targets). */
  created: CreatedObject[];
  /** Tickets whose last write the deployment answered as closed: the clean-up leaves them be. */
  closedByTests: Set<string>;
  /** The retry check's delivery the global setup triggered (contracts/retry-probe.ts), if any. */
  retryProbe?: RetryProbe;
  /** The plan the user declared a key under (HARNESS_TEAM_KEYS, …): ratelimit.plan-limit. */
  planOf: PlanOf;
}

type WorkerFixtures = {
  /** How a worker starts the embedded reference deployment: playwright.config.ts gives server/start.ts's. */
  reference: { start?: StartEmbedded };
  /** This project's faults of the embedded deployment (the detection matrix), over the run's. */
  faults: string[];
  /** This project's own resolved configuration (the dashboard-mode detection matrix). */
  configFile: string | undefined;
  target: Target;
  history: Exchange[];
};
type TestFixtures = {
  api: ApiClient;
  exchanges: Exchange[];
  verdict: Verdict;
  needs: (...creds: Credential[]) => void;
  /**
   * Records an observed gap value for snapshot.json under a stable id (`kebab-case`, optionally
   * `:parameter`, e.g. `payload-keys:ticket.created`); `harness compare` matches probes by id, so
   * the optional label can be reworded freely. An id ending in `-ms` is a timing: compared with
   * the baseline as a range.
   */
  probe: (gap: string, id: string, value: unknown, label?: string) => void;
  /**
   * A matrix cell (check × operation id) this target cannot reach, with the reason; `byTarget`
   * when the target's own answer kept it (a 429 in the rule's place, contracts/matrix-sent.ts).
   */
  notReached: (check: string, column: string, reason: string, byTarget?: boolean) => void;
  /** Subject prefix and tags that mark every object the harness creates (shared staging). */
  tag: { subject: (s: string) => string; tags: string[] };
};

/** A probe's stable id: what `harness compare` matches on (its label is only for people). */
const PROBE_ID = /^[a-z0-9]+(-[a-z0-9]+)*(:\S+)?$/;

/**
 * A file of this run's raw directory, for what a worker keeps for the next one (a worker that
 * failed a test is replaced; the rule matrix's shared objects outlive it there).
 */
export const runFile = (name: string) => join(run().rawDir, name);

/** Appends `rows` to this run's raw file `file`. */
const appendRaw = (file: string, rows: unknown[]) => appendJsonl(join(run().rawDir, file), rows);

/**
 * Records an exchange that can fire a webhook event in the run's delivery ledger (the sweep,
 * delivery-sweep.ts, matches every delivery to it). Whose workspace: the other workspace's key,
 * else the one under test. The key itself is only compared here, never written.
 */
/** The requests a test borrowed from others' answers (BORROWED_REQUESTS), for its cost row. */
function borrowedBy(annotations: ReadonlyArray<{ type: string; description?: string }>) {
  const n = annotations
    .filter((a) => a.type === BORROWED_REQUESTS)
    .reduce((s, a) => s + (Number(a.description) || 0), 0);
  return n > 0 ? { borrowed: n } : {};
}

function ledger(target: Pick<Target, 'keys'>, project: string | undefined) {
  return (ex: Exchange) => {
    const action = ledgerActionOf(ex, ledgerWorkspace(ex, target.keys.otherWorkspace));
    if (action)
      appendRaw(`actions-${process.pid}.jsonl`, [
        { ...action, ...(project ? { project } : {}), run: run().id },
      ]);
  };
}

/** Subscriptions over the receiver's deliveries, each waiting up to `waitMs` by default. */
function subscriptionView(receiver: ReceiverView, receiverUrl: string, waitMs: number) {
  const publicPath = new URL(receiverUrl).pathname.replace(/\/+$/, '');
  // Routing by path: a tunnel or ingress may keep the public URL's path or strip it.
  return (
    path: string,
    rest: Omit<Subscription, 'path' | 'deliveries' | 'waitFor' | 'receiverUrl'>,
  ): Subscription => {
    const mine = (d: CapturedDelivery) => {
      const p = d.path.split('?')[0]!;
      return p === `${publicPath}${path}` || p === (path || '/');
    };
    const deliveries = async () => (await receiver.all()).filter(mine);
    return {
      ...rest,
      path,
      receiverUrl,
      deliveries,
      waitFor: async (pred, timeoutMs = waitMs) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const ds = await deliveries();
          if (pred(ds)) return ds;
          if (Date.now() > deadline) throw new Error(`no matching delivery within ${timeoutMs} ms`);
          await new Promise((r) => setTimeout(r, 100));
        }
      },
    };
  };
}

/** This worker's view of the resolved deployment and its receiver (see Target). */
function workerTarget(
  cfg: HarnessConfig,
  resolved: ResolvedTarget,
  receiver: ReceiverView,
  secure: () => Promise<{ rx: CaptureReceiver; cert: string }>,
) {
  const receiverUrl = cfg.webhookUrl ?? receiver.listenUrl;
  const adminSurface = (): AdminClient => {
    if (!resolved.admin)
      throw new Error('no admin token: the admin surface exists only on the reference deployment');
    return resolved.admin;
  };
  // The embedded deployment delivers within milliseconds; a real one may queue deliveries
  // for seconds, and a wait only costs time when the delivery never comes.
  const waitMs = resolved.service ? 4000 : 15_000;
  const view = subscriptionView(receiver, receiverUrl, waitMs);
  const secureView = (rx: CaptureReceiver) => subscriptionView(localView(rx), rx.url!, waitMs);
  const endpoint: Target['endpoint'] = (e) =>
    view(e.path, { secret: e.secret, secretEnv: e.secretEnv, events: e.events, form: e.form });
  let n = 0;
  // The workspace of the run's key, looked up once per worker: it never changes, and each lookup
  // is a request on the run's key. A failed or empty lookup is asked again next time.
  let workspace: ReturnType<AdminClient['lookupKey']> | undefined;
  const workspaceOfKey = () => {
    workspace ??= adminSurface()
      .lookupKey(fullKey(resolved))
      .then((ws) => {
        if (!ws) workspace = undefined;
        return ws;
      });
    workspace.catch(() => {
      workspace = undefined;
    });
    return workspace;
  };
  const subscribe: Target['subscribe'] = async ({ events, form = 'both', https = false }) => {
    if (!resolved.admin) {
      if (https && !receiverUrl.startsWith('https:'))
        return `not run: the public webhook URL (HARNESS_WEBHOOK_URL) is not HTTPS`;
      const fits = cfg.webhookEndpoints
        .filter((e) => events.every((ev) => e.events.includes(ev)))
        .sort((a, b) => b.events.length - a.events.length);
      if (fits[0]) return endpoint(fits[0]);
      return cfg.webhookEndpoints.length === 0
        ? `not run: needs ${missingCredential(resolved, cfg, ['webhook']) ?? 'a webhook endpoint'}`
        : `not run: no configured webhook endpoint is subscribed to ${events.join(', ')} (HARNESS_WEBHOOK_ENDPOINTS)`;
    }
    const path = `/hook-${run().id}-${process.pid}-${++n}`;
    const ws = await workspaceOfKey();
    if (!ws)
      throw new Error(
        'could not resolve the workspace of HARNESS_API_KEY through the admin surface',
      );
    const secret = `whsec_${randomBytes(18).toString('base64url')}`;
    registerSecret(secret);
    const tls = https ? await secure() : undefined;
    const r = await adminSurface().call('POST', '/admin/webhooks', {
      workspace_id: ws.workspace_id,
      url: `${tls ? tls.rx.url : receiverUrl}${path}`,
      events,
      secret,
      form,
      ...(tls ? { ca: tls.cert } : {}),
    });
    if (r.status !== 201) throw new Error(`subscribing the capture receiver failed: ${r.status}`);
    const sub = { endpointId: r.json.id, secret, events, form };
    return tls ? secureView(tls.rx)(path, sub) : view(path, sub);
  };
  const target: Target = {
    cfg,
    baseUrl: resolved.baseUrl,
    keys: resolved.keys,
    resolved,
    embedded: resolved.service,
    receiver,
    receiverUrl,
    dashboard: !resolved.admin && cfg.webhookEndpoints.length > 0,
    admin: (method, path, body) => adminSurface().call(method, path, body),
    subscribe,
    endpoint,
    lookupKey: (key) => adminSurface().lookupKey(key),
    created: [],
    closedByTests: new Set(),
    planOf: declaredPlans(cfg, resolved),
  };
  return target;
}

/**
 * What the worker's shared fixtures cost — the readable ticket and contact, the rule matrix's
 * objects, the webhook lifecycle — counted as the worker's set-up, not as the cost of whichever
 * test happened to make them first: a run that selects fewer tests (`--grep`, `--max-requests`)
 * still makes them once, and contracts/request-costs.json counts them once per worker
 * (`perWorker`, scripts/contract-costs.ts). Tests of a worker run one at a time, so the requests
 * sent while a shared fixture is made are its own; the objects it creates are left out of the
 * test's clean-up count (the worker's clean-up closes them, as its own).
 */
const shared = { sent: 0, key: 0, objects: new Set<string>() };
/** The running test's view of the counts (set by the api fixture; none outside a test). */
let counts: { key: () => number; created: () => CreatedObject[] } | undefined;

/** Runs `make` (a shared fixture's creation) with its requests counted as the worker's. */
export async function asShared<T>(make: () => Promise<T>): Promise<T> {
  const c = counts;
  const sent = processRateStats().sent;
  const key = c?.key() ?? 0;
  const made = c?.created().length ?? 0;
  try {
    return await make();
  } finally {
    shared.sent += processRateStats().sent - sent;
    shared.key += (c?.key() ?? 0) - key;
    for (const o of c?.created().slice(made) ?? []) shared.objects.add(`${o.kind}:${o.id}`);
  }
}

/** What a created object is until the clean-up says otherwise. */
const UNCLEANED = 'not cleaned: the run was stopped before its clean-up';

/** How long a worker's clean-up may take (paced by the key's budget, so it can wait). */
const CLEAN_UP_MS = 90_000;

/**
 * Closes the tickets and deletes the contacts this worker created (shared staging hygiene), and
 * says what became of each; an embedded deployment is thrown away whole.
 */
async function cleanUpCreated(t: Target, project: string | undefined): Promise<CreatedRecord[]> {
  if (t.embedded) return discarded(t.created).map((r) => ({ ...r, area: 'contracts' }));
  const clean = (objects: CreatedObject[], key: string) =>
    cleanUp(objects, {
      baseUrl: t.baseUrl,
      key,
      timeoutMs: t.cfg.timeoutMs,
      withinMs: CLEAN_UP_MS,
      // Its closes fire events: they go to the delivery ledger like every other action.
      record: ledger(t, project),
      // What a test closed last is closed already: no second close (a request on a shared key).
      closedAlready: (c) => t.closedByTests.has(c.id),
    });
  const own = t.created.filter((c) => c.workspace !== 'other');
  const other = t.created.filter((c) => c.workspace === 'other');
  const otherKey = t.keys.otherWorkspace;
  const records = [
    ...(await clean(own, fullKey(t.resolved))),
    ...(otherKey
      ? await clean(other, otherKey)
      : other.map((c) => ({
          ...c,
          state: 'left' as const,
          why: "the other workspace's key is gone",
        }))),
  ];
  return records.map((r) => ({ ...r, area: 'contracts' }));
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  faults: [[], { option: true, scope: 'worker' }],

  configFile: [undefined, { option: true, scope: 'worker' }],

  reference: [{}, { option: true, scope: 'worker' }],

  target: [
    async ({ faults, configFile, reference }, use, workerInfo) => {
      const given = configFile ? readResolved(configFile)!.config : run().resolved.config;
      const cfg = faults.length > 0 ? { ...given, faults } : given;
      // Every worker obeys the key's headers on its own; the reserve and the refill share scale
      // with how many of them send with the key at once.
      // The key-wide reserve (run/run-all.ts resolved it from the preflight) is left for others.
      configureRateBudgets({
        sharers: Math.max(1, workerInfo.config.workers),
        keyReserve: cfg.reserve ?? 0,
      });
      // A public URL means a fixed address: the run's shared receiver (global-setup.ts). Without
      // one, this worker's own receiver on a random loopback port, subscribed via the admin API.
      const shared = cfg.webhookUrl ? run().resolved.shared?.capture : undefined;
      const own = shared ? undefined : new CaptureReceiver();
      await own?.start();
      // An HTTPS receiver of the worker's own, started when a test first subscribes one.
      let secure: Promise<{ rx: CaptureReceiver; cert: string }> | undefined;
      const secureReceiver = () =>
        (secure ??= generateSelfSignedCert().then(async (tls) => {
          const rx = new CaptureReceiver({ tls });
          await rx.start();
          return { rx, cert: tls.cert };
        }));
      const receiver = shared ? remoteView(shared.control, shared.listen) : localView(own!);
      const resolved: ResolvedTarget = await resolveTarget(cfg, {
        start: reference.start,
        // The growth workspace has room for the whole suite without throttling (burst 1000);
        // a short retry schedule lets retry checks finish in seconds.
        workspace: 'growth',
        webhookRetryDelaysMs: [100, 200, 400, 800, 1600],
        webhookTimeoutMs: 3000,
      });
      const target = workerTarget(cfg, resolved, receiver, secureReceiver);
      // The reserve is the run's key's (`--reserve`): the other keys keep only their own few. A
      // worker is its own process, so it says so itself, as the run does (run/run-all.ts).
      configureRateBudgets({
        reserveFor: target.keys.full ? `Bearer ${target.keys.full}` : undefined,
      });
      target.retryProbe = run().resolved.shared?.retryProbe;
      await use(target);
      const project = workerInfo.project.name;
      appendRaw(`created-${process.pid}.jsonl`, await cleanUpCreated(target, project));
      // What this worker's own receiver captured, for the run's delivery sweep (the shared
      // receiver's is written by the global teardown).
      const tls = await secure;
      for (const [rx, receiverUrl] of [
        [own, target.receiverUrl],
        [tls?.rx, tls?.rx.url],
      ] as const)
        if (rx && receiverUrl)
          appendRaw(
            `deliveries-${process.pid}.jsonl`,
            rx.deliveries.map((d) =>
              deliveryRow(d, { run: run().id, receiverUrl, secretEnv: 'WEBHOOK_SECRET', project }),
            ),
          );
      // The requests this worker sent to the API: the gate run's count (run/request-count.ts).
      appendRaw(`requests-${process.pid}.jsonl`, [processRateStats()]);
      // The worker's whole count beside its tests': the rest is its own set-up and clean-up.
      const keyBudget = target.keys.full
        ? rateBudget(target.baseUrl, `Bearer ${target.keys.full}`)
        : undefined;
      appendRaw(`costs-${process.pid}.jsonl`, [
        {
          worker: true,
          sent: processRateStats().sent,
          key: keyBudget?.stats.sent ?? 0,
          lowestRemaining: keyBudget?.lowestRemaining ?? null,
          // When it waited for the key's rate limit: the run's wall-clock wait is their union.
          waits: processWaits(),
        },
      ]);
      await own?.close();
      await tls?.rx.close();
      await resolved.close();
    },
    // The clean-up is paced by the key's budget: room for it beyond a test's time limit.
    { scope: 'worker', timeout: CLEAN_UP_MS + 60_000 },
  ],

  history: [
    async ({}, use) => {
      await use([]);
    },
    { scope: 'worker' },
  ],

  exchanges: async ({}, use) => {
    await use([]);
  },

  api: async ({ target, request, exchanges, history }, use, testInfo) => {
    const toLedger = ledger(target, testInfo.project.name);
    const track = (ex: Exchange) => {
      exchanges.push(ex);
      toLedger(ex);
      notePulse(run().rawDir, ex);
      history.push(rateTrace(ex));
      const state = ticketStateBy(ex);
      if (state?.closed) target.closedByTests.add(state.id);
      else if (state) target.closedByTests.delete(state.id);
      // Only the recent past matters to the sequence checks; a long run keeps memory flat.
      if (history.length > 2000) history.splice(0, 1000);
      const found = createdBy(ex);
      // What the other workspace's key created is closed with that key (A's key gets a 404).
      const made =
        found && ledgerWorkspace(ex, target.keys.otherWorkspace) === 'other'
          ? { ...found, workspace: 'other' as const }
          : found;
      if (made) {
        target.created.push(made);
        // Written at once: a worker stopped before its clean-up still says what it left.
        appendRaw(`created-${process.pid}.jsonl`, [
          target.embedded
            ? ({ ...made, state: 'discarded', area: 'contracts' } satisfies CreatedRecord)
            : ({
                ...made,
                state: 'left',
                why: UNCLEANED,
                area: 'contracts',
              } satisfies CreatedRecord),
        ]);
      }
    };
    const http = createClient({
      baseUrl: target.baseUrl,
      transport: playwrightTransport(request),
      key: target.keys.full,
      headers: { accept: 'application/json, application/problem+json' },
      contentType: 'application/json',
      record: track,
      timeoutMs: target.cfg.timeoutMs,
      // Time spent waiting for the key's rate limit is not the test's: its limit grows by it
      // (each wait is bounded by the budget: per request, and per worker in total).
      onRateWait: (ms) => {
        if (testInfo.timeout > 0) testInfo.setTimeout(testInfo.timeout + ms);
      },
      // The key's budget ran out (shared staging, or a re-run): not run, never a failure — but
      // the target's 429s kept the test's rules from being checked (report/rule-coverage.ts).
      onBudgetSpent: (reason) => {
        testInfo.annotations.push({ type: KEPT_BY_TARGET, description: reason });
        testInfo.skip(true, reason);
      },
    });
    const readBefore = processReadStats();
    // What the test cost the target's rate limits, all keys and the run's own key: the table the
    // cost line before a run is summed from (contracts/request-costs.json, scripts/contract-costs.ts).
    const keyBudget = target.keys.full
      ? rateBudget(target.baseUrl, `Bearer ${target.keys.full}`)
      : undefined;
    const sentBefore = processRateStats().sent;
    const keyBefore = keyBudget?.stats.sent ?? 0;
    const createdBefore = target.created.length;
    const sharedBefore = { sent: shared.sent, key: shared.key };
    counts = { key: () => keyBudget?.stats.sent ?? 0, created: () => target.created };
    try {
      await use(new ApiClient(http));
    } finally {
      counts = undefined;
    }
    // What the test leaves for the worker's clean-up — a close or a delete each, on a deployment
    // that is not thrown away whole (a rule stays: v1 cannot delete one) — is the test's cost too:
    // counted with it, the cost of a run does not depend on how many workers share its tests.
    // A shared fixture's objects are the worker's (asShared).
    const left = target.embedded
      ? []
      : target.created
          .slice(createdBefore)
          .filter(
            (c) =>
              c.kind !== 'rule' &&
              !shared.objects.has(`${c.kind}:${c.id}`) &&
              !(c.kind === 'ticket' && target.closedByTests.has(c.id)),
          );
    appendRaw(`costs-${process.pid}.jsonl`, [
      {
        test: testInfo.titlePath.slice(1).join(' › '),
        sent:
          processRateStats().sent - sentBefore - (shared.sent - sharedBefore.sent) + left.length,
        key:
          (keyBudget?.stats.sent ?? 0) -
          keyBefore -
          (shared.key - sharedBefore.key) +
          left.filter((c) => c.workspace !== 'other').length,
        ...borrowedBy(testInfo.annotations),
      },
    ]);
    // How much of the target's data the test read (core/http/read-tally.ts), test by test: a
    // worker stopped later still counts what it read.
    appendRaw(`reads-${process.pid}.jsonl`, [addReadStats(processReadStats(), readBefore, -1)]);
  },

  verdict: [
    async ({ target, exchanges, history }, use, testInfo) => {
      const title = testInfo.titlePath.slice(1).join(' › ');
      const v = new Verdict(
        checks,
        title,
        join(run().rawDir, `checks-${testInfo.parallelIndex}.jsonl`),
        testInfo.project.name,
        { planOf: target.planOf },
        exchanges,
      );
      await use(v);
      if (testInfo.status === 'skipped') return;
      v.checkExchanges(exchanges);
      v.checkSequences(exchanges, history);
      v.flush();
      appendRaw(
        `exchanges-${testInfo.parallelIndex}.jsonl`,
        exchanges.map((ex) => ({ test: title, ...loggableExchange(ex) })),
      );
      for (const f of v.failures('assumed')) {
        testInfo.annotations.push({
          type: 'assumption-mismatch',
          description: `${f.check}: ${f.received}`,
        });
      }
      // The detection matrix only records verdicts: a failing test restarts its worker (and
      // with it an embedded deployment), which would make the matrix ten times slower.
      const fatal = run().resolved.suite?.recordOnly
        ? undefined
        : v.fatalMessage(target.cfg.strict);
      if (fatal) {
        // The test body completed and failed on its checks alone: the report files it under
        // them. A body that threw first (a crash) is not marked, so it is reported as one.
        if (testInfo.errors.length === 0)
          testInfo.annotations.push({
            type: FAILED_BY_CHECKS,
            description: [...new Set(v.failures().map((f) => f.check))].join(', '),
          });
        await testInfo.attach('exchanges', {
          body: JSON.stringify(exchanges.map(loggableExchange), null, 2),
          contentType: 'application/json',
        });
        throw new Error(fatal);
      }
    },
    { auto: true },
  ],

  needs: async ({ target }, use) => {
    await use((...creds) => {
      const reason = missingCredential(target.resolved, target.cfg, creds);
      base.skip(Boolean(reason), reason);
    });
  },

  probe: async ({}, use, testInfo) => {
    await use((gap, id, value, label) => {
      if (!PROBE_ID.test(id))
        throw new Error(
          `probe id '${id}' is not kebab-case[:parameter]; wording goes in the label`,
        );
      // A probe may record what the target answered (problem keys, a header): bounded, so the
      // snapshot, the compatibility compare and the page never carry a mebibyte of it.
      appendRaw(`probes-${testInfo.parallelIndex}.jsonl`, [
        // The test by the title the exchange log and the report use: what a comparison matches.
        {
          gap,
          id,
          ...(label ? { label } : {}),
          value: boundedValue(value),
          test: testInfo.titlePath.slice(1).join(' › '),
        },
      ]);
    });
  },

  notReached: async ({}, use, testInfo) => {
    await use((check, column, reason, byTarget) => {
      appendRaw(`matrix-${testInfo.parallelIndex}.jsonl`, [
        {
          check,
          column,
          reason,
          project: testInfo.project.name,
          ...(byTarget ? { byTarget } : {}),
        },
      ]);
    });
  },

  tag: async ({}, use) => {
    await use({
      subject: (s) => `[harness ${run().id}] ${s}`,
      tags: ['harness', `run-${run().id}`],
    });
  },
});
