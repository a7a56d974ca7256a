/**
 * The contract suite's global setup, in the Playwright runner before any worker starts:
 *   - the configuration: the one the harness resolved (HARNESS_RESOLVED_CONFIG), or — run alone,
 *     `npx playwright test` — read here once and written to such a file for the workers;
 *   - when the deployment reaches the capture receiver at a user-given public URL
 *     (HARNESS_WEBHOOK_URL), the run's one receiver: every worker shares it through its control
 *     API (core/webhooks/shared-receiver.ts), because a dashboard-configured endpoint points at
 *     one fixed address. Then it triggers the retry check's delivery (retry-probe.ts), so the
 *     wait for its retry overlaps the suite.
 * What it starts reaches the workers through the same file (`shared`).
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../core/config.ts';
import { envVar } from '../core/variables.ts';
import { readResolved, rewriteResolved, writeResolved } from '../core/resolved-config.ts';
import { CaptureReceiver } from '../core/webhooks/capture-receiver.ts';
import { startControl } from '../core/webhooks/shared-receiver.ts';
import { closeProbeTicket, startRetryProbe } from './retry-probe.ts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  let file = envVar('HARNESS_RESOLVED_CONFIG');
  const r = readResolved(file) ?? { config: loadConfig() };
  const own = file ? undefined : writeResolved(r);
  if (own) {
    file = own.file;
    process.env.HARNESS_RESOLVED_CONFIG = file; // the workers inherit the runner's environment
  }
  const cfg = r.config;
  if (!cfg.webhookUrl || r.shared?.capture) return async () => own?.remove();
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
  // One run id for the probe's ticket and every worker's objects.
  const runId = r.suite?.runId ?? randomBytes(4).toString('hex');
  // One deployment per project in the dashboard detection matrix: no run-wide target to trigger.
  const oneTarget = !r.suite?.projects?.some((p) => p.configFile);
  const probe = oneTarget ? await startRetryProbe(cfg, rx, runId) : undefined;
  r.shared = {
    capture: { control: control.url, listen },
    runId,
    ...(probe ? { retryProbe: probe } : {}),
  };
  rewriteResolved(file!, r);
  return async () => {
    if (probe) await closeProbeTicket(cfg, probe);
    control.server.closeAllConnections?.();
    await new Promise<void>((resolve) => control.server.close(() => resolve()));
    await rx.close();
    own?.remove();
  };
}
