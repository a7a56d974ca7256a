/**
 * Starts the run's one capture receiver when the deployment reaches it at a user-given public URL
 * (HARNESS_WEBHOOK_URL): every worker shares it through its control API (core/webhooks/
 * shared-receiver.ts), because a dashboard-configured endpoint points at one fixed address.
 * Then triggers the retry check's delivery (retry-probe.ts), so the wait for its retry overlaps
 * the suite. Playwright hands the variables set here to the workers.
 */
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../core/config.ts';
import { CaptureReceiver } from '../core/webhooks/capture-receiver.ts';
import { startControl } from '../core/webhooks/shared-receiver.ts';
import { closeProbeTicket, RETRY_PROBE_ENV, startRetryProbe } from './retry-probe.ts';

export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  const cfg = loadConfig();
  if (!cfg.webhookUrl || process.env.HARNESS_CAPTURE_CONTROL) return undefined;
  const rx = new CaptureReceiver(cfg.webhookTls ? { tls: cfg.webhookTls } : {});
  const { host, port } = cfg.webhookListen;
  let listenUrl: string;
  try {
    listenUrl = await rx.start(host, port);
  } catch (e) {
    throw new Error(
      `capture receiver: cannot listen on HARNESS_WEBHOOK_LISTEN=${host}:${port}: ${(e as Error).message}`,
    );
  }
  const control = await startControl(rx);
  process.env.HARNESS_CAPTURE_CONTROL = control.url;
  process.env.HARNESS_CAPTURE_LISTEN = listenUrl;
  // One run id for the probe's ticket and every worker's objects (they read it at start).
  process.env.HARNESS_RUN_ID ??= randomBytes(4).toString('hex');
  const probe = await startRetryProbe(cfg, rx, process.env.HARNESS_RUN_ID);
  if (probe) process.env[RETRY_PROBE_ENV] = JSON.stringify(probe);
  return async () => {
    if (probe) await closeProbeTicket(cfg, probe);
    control.server.closeAllConnections?.();
    await new Promise<void>((resolve) => control.server.close(() => resolve()));
    await rx.close();
  };
}
