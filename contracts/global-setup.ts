/**
 * The contract suite's global setup, in the Playwright runner before any worker starts:
 *   - the configuration: the one the harness resolved (HARNESS_RESOLVED_CONFIG), or — run alone,
 *     `npx playwright test` — read here once and written to such a file for the workers;
 *   - when the deployment reaches the capture receiver at a user-given public URL
 *     (HARNESS_WEBHOOK_URL), the run's one receiver: every worker shares it through its control
 *     API (core/webhooks/shared-receiver.ts), because a dashboard-configured endpoint points at
 *     one fixed address. Then it triggers the retry check's delivery (retry-probe.ts), so the
 *     wait for its retry overlaps the suite.
 * What it starts reaches the workers through the same file (`shared`). Its teardown writes what
 * the shared receiver captured and judges every delivery of the run (delivery-sweep.ts); run
 * alone, a documented failure there fails the run (under the harness, the summary says it).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type HarnessConfig, loadConfig } from '../core/config.ts';
import { reasonOf, uniqueFailures } from '../core/area.ts';
import { formatFailure } from '../core/checks/failure.ts';
import type { Exchange } from '../core/http/exchange.ts';
import { appendJsonl } from '../core/output-dir.ts';
import { envVar } from '../core/variables.ts';
import {
  type Resolved,
  readResolved,
  rewriteResolved,
  writeResolved,
} from '../core/resolved-config.ts';
import { CaptureReceiver } from '../core/webhooks/capture-receiver.ts';
import { ledgerActionOf } from '../core/webhooks/delivery-ledger.ts';
import { startControl } from '../core/webhooks/shared-receiver.ts';
import { deliveryRow } from './delivery-rows.ts';
import { sweepDeliveries } from './delivery-sweep.ts';
import { playwrightOutDir } from './playwright-output.ts';
import { closeProbeTicket, startRetryProbe } from './retry-probe.ts';

/** The variable of the secret of the configured endpoint a delivery at `path` reached. */
function secretEnvOf(cfg: HarnessConfig, path: string): string {
  const p = path.split('?')[0]!;
  const e = [...cfg.webhookEndpoints]
    .sort((a, b) => b.path.length - a.path.length)
    .find((x) => p === x.path || p.endsWith(x.path));
  return e?.secretEnv ?? 'HARNESS_WEBHOOK_SECRET';
}

/** Waits until nothing has arrived for `quietMs` (at most `maxMs`): the clean-up's last events. */
async function quiet(rx: CaptureReceiver, quietMs = 1000, maxMs = 5000): Promise<void> {
  const end = Date.now() + maxMs;
  let n = rx.deliveries.length;
  let since = Date.now();
  while (Date.now() < end && Date.now() - since < quietMs) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (rx.deliveries.length !== n) {
      n = rx.deliveries.length;
      since = Date.now();
    }
  }
}

/**
 * The run's delivery sweep. Under the harness its results join the summary; run alone, a
 * documented failure (an assumed one too with HARNESS_STRICT) fails `npx playwright test` here.
 */
function sweep(r: Resolved, rawDir: string, runId: string): void {
  let failures: ReturnType<typeof sweepDeliveries>;
  try {
    failures = sweepDeliveries(rawDir, runId);
  } catch (e) {
    // A raw file cut short (a worker killed mid-write): the sweep's checks go unevaluated, said
    // so, and the tests' own verdicts stand.
    console.error(`webhook delivery sweep not run: ${reasonOf(e)}`);
    return;
  }
  if (r.suite) return;
  const fatal = failures.filter((f) => f.provenance === 'documented' || r.config.strict);
  if (fatal.length > 0)
    throw new Error(
      `${uniqueFailures(fatal).map(formatFailure).join('\n\n')}\n(webhook deliveries of the run, judged after the last test)`,
    );
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  let file = envVar('HARNESS_RESOLVED_CONFIG');
  const r = readResolved(file) ?? { config: loadConfig() };
  const own = file ? undefined : writeResolved(r);
  if (own) {
    file = own.file;
    process.env.HARNESS_RESOLVED_CONFIG = file; // the workers inherit the runner's environment
  }
  const cfg = r.config;
  const rawDir = join(playwrightOutDir(r.suite), 'raw');
  // One run id for the probe's ticket, every worker's objects and the delivery sweep's rows (a
  // raw directory that was not emptied holds another run's).
  const runId = r.suite?.runId ?? r.shared?.runId ?? randomBytes(4).toString('hex');
  if (!cfg.webhookUrl || r.shared?.capture) {
    if (!r.shared?.runId) {
      r.shared = { ...r.shared, runId };
      rewriteResolved(file!, r);
    }
    return async () => {
      try {
        sweep(r, rawDir, runId);
      } finally {
        own?.remove();
      }
    };
  }
  const rx = new CaptureReceiver(cfg.webhookTls ? { tls: cfg.webhookTls } : {});
  const { host, port } = cfg.webhookListen;
  let listen: string;
  try {
    listen = await rx.start(host, port);
  } catch (e) {
    own?.remove();
    throw new Error(
      `capture receiver: cannot listen on HARNESS_WEBHOOK_LISTEN=${host}:${port}: ${(e as Error).message}`,
    );
  }
  const control = await startControl(rx);
  // One deployment per project in the dashboard detection matrix: no run-wide target to trigger.
  const oneTarget = !r.suite?.projects?.some((p) => p.configFile);
  // The probe's ticket fires events like any other: its actions go to the delivery ledger.
  const toLedger = (ex: Exchange) => {
    const action = ledgerActionOf(ex, 'own');
    if (action) appendJsonl(join(rawDir, 'actions-setup.jsonl'), [{ ...action, run: runId }]);
  };
  const probe = oneTarget ? await startRetryProbe(cfg, rx, runId, toLedger) : undefined;
  r.shared = {
    capture: { control: control.url, listen },
    runId,
    ...(probe ? { retryProbe: probe } : {}),
  };
  rewriteResolved(file!, r);
  return async () => {
    try {
      if (probe) await closeProbeTicket(cfg, probe, toLedger);
      await quiet(rx);
      appendJsonl(
        join(rawDir, 'deliveries-shared.jsonl'),
        rx.deliveries.map((d) =>
          deliveryRow(d, {
            run: runId,
            receiverUrl: cfg.webhookUrl!,
            secretEnv: secretEnvOf(cfg, d.path),
          }),
        ),
      );
    } finally {
      control.server.closeAllConnections?.();
      await new Promise<void>((resolve) => control.server.close(() => resolve()));
      await rx.close();
    }
    try {
      sweep(r, rawDir, runId);
    } finally {
      own?.remove();
    }
  };
}
