/**
 * The retry check's trigger on a dashboard deployment, started by the global setup before any
 * test: the run's shared receiver answers 503 to the first attempt of one marked ticket.created
 * delivery, and the ticket is created at once. Waiting for the retry then overlaps the whole
 * suite instead of following it; the retry test (webhooks.spec.ts) only judges what arrived, and
 * waits on only when the suite was quicker than RETRY_MIN_WAIT_MS. Workers read the probe from
 * the resolved configuration's `shared` (core/resolved-config.ts). Anything that stops the trigger (read-only, no endpoint for
 * ticket.created, the creation refused) leaves the test to trigger and wait on its own.
 */
import { randomBytes } from 'node:crypto';
import type { HarnessConfig } from '../core/config.ts';
import type { Exchange } from '../core/http/exchange.ts';
import { createClient } from '../core/http/client.ts';
import { undiciTransport } from '../core/http/undici-transport.ts';
import type { SuiteShared } from '../core/resolved-config.ts';
import type { CaptureReceiver } from '../core/webhooks/capture-receiver.ts';

/** The shortest observation of a missing retry, from the 503 on (capped by the configured wait). */
export const RETRY_MIN_WAIT_MS = 10_000;

export type RetryProbe = NonNullable<SuiteShared['retryProbe']>;

/** Whether this run can trigger early: a real deployment whose dashboard endpoints we share. */
function canTrigger(
  cfg: HarnessConfig,
): cfg is HarnessConfig & { baseUrl: string; apiKey: string } {
  return Boolean(
    cfg.baseUrl &&
      cfg.apiKey &&
      cfg.webhookUrl &&
      !cfg.adminToken &&
      !cfg.readOnly &&
      cfg.webhookEndpoints.some((e) => e.events.includes('ticket.created')),
  );
}

/** Arms the receiver and creates the marked ticket; the probe, or undefined when not possible. */
export async function startRetryProbe(
  cfg: HarnessConfig,
  rx: CaptureReceiver,
  runId: string,
  /** Told of each exchange (the delivery ledger: the probe's ticket fires events too). */
  record?: (ex: Exchange) => void,
): Promise<RetryProbe | undefined> {
  if (!canTrigger(cfg)) return undefined;
  const marker = `retry-${randomBytes(6).toString('hex')}`;
  rx.failFirst({ marker, attempts: 1, status: 503 });
  const armedAt = Date.now();
  const created = await apiOf(cfg, record).send('POST', '/v1/tickets', {
    body: {
      subject: `[harness ${runId}] webhook retries ${marker}`,
      requester: { email: 'harness@example.com', name: 'Harness' },
      priority: 'normal',
      tags: ['harness', `run-${runId}`],
    },
  });
  const ok = created.status !== undefined && created.status < 300;
  const id = ok ? (created.json as { id?: unknown } | undefined)?.id : undefined;
  if (typeof id !== 'string') return undefined;
  return { marker, ticketId: id, armedAt };
}

/** Closes the probe's ticket (shared staging hygiene); a failure is not the run's verdict. */
export async function closeProbeTicket(
  cfg: HarnessConfig,
  probe: RetryProbe,
  record?: (ex: Exchange) => void,
): Promise<void> {
  if (!canTrigger(cfg)) return;
  await apiOf(cfg, record).send('POST', `/v1/tickets/${encodeURIComponent(probe.ticketId)}/close`);
}

/** The one client with the run's key, paced by its budget like every request to the API. */
function apiOf(
  cfg: HarnessConfig & { baseUrl: string; apiKey: string },
  record?: (ex: Exchange) => void,
) {
  return createClient({
    baseUrl: cfg.baseUrl,
    transport: undiciTransport(),
    key: cfg.apiKey,
    timeoutMs: cfg.timeoutMs,
    contentType: 'application/json',
    ...(record ? { record } : {}),
  });
}
