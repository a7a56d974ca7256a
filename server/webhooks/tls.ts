import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';

/**
 * The HTTP(S) client of the dispatcher. Extra CAs are added to Node's bundled roots for this
 * agent only: a self-signed receiver is trusted explicitly, never by switching verification off
 * (no `rejectUnauthorized: false`, no `NODE_TLS_REJECT_UNAUTHORIZED`).
 */
export function createDeliveryAgent(trustedCa: readonly string[] = []): Agent {
  if (trustedCa.length === 0) return new Agent();
  return new Agent({ connect: { ca: [...rootCertificates, ...trustedCa] } });
}
