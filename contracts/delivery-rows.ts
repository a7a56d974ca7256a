/**
 * The raw rows of the run's delivery sweep (delivery-sweep.ts): the actions a worker performed and
 * the deliveries a receiver captured, each tagged with the run that wrote it. No signature value
 * is ever written: a delivery keeps the names of its signature headers (its repro sends the same
 * forms), never their values.
 */
import { SIGNATURE_HEADER } from '../core/signature/index.ts';
import type { CapturedDelivery } from '../core/webhooks/capture-receiver.ts';
import type { LedgerAction } from '../core/webhooks/delivery-ledger.ts';

/** One captured delivery as recorded for the sweep (no signature value is ever written). */
export interface DeliveryRow {
  endpoint: string;
  receivedAt: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Base64 of the exact bytes received. */
  raw: string;
  answered: number;
  /** The public URL the deployment delivered to, and the endpoint secret's variable (repro). */
  receiverUrl: string;
  secretEnv: string;
  project?: string;
  /** The run that captured it (a raw directory that was not emptied holds other runs' rows). */
  run: string;
}

/** An action as written to the raw files. */
export type ActionRow = LedgerAction & { run: string };

const SIGNATURE_NAMES = Object.values(SIGNATURE_HEADER).map((h) => h.toLowerCase());

/** A delivery as written to the raw files: its signature headers named, their values not. */
export function deliveryRow(
  d: CapturedDelivery,
  o: { run: string; receiverUrl: string; secretEnv: string; project?: string },
): DeliveryRow {
  const headers = Object.fromEntries(
    Object.entries(d.headers).map(([k, v]) => [k, SIGNATURE_NAMES.includes(k) ? '(not kept)' : v]),
  );
  return {
    endpoint: d.path.split('?')[0]!,
    receivedAt: d.receivedAt,
    method: d.method,
    path: d.path,
    headers,
    raw: d.raw.toString('base64'),
    answered: d.answered,
    receiverUrl: o.receiverUrl,
    secretEnv: o.secretEnv,
    ...(o.project ? { project: o.project } : {}),
    run: o.run,
  };
}
