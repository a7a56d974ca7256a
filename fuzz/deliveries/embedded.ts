/**
 * The embedded reference deployment as a fuzz target: loopback, port 0, short webhook retries,
 * and an Enterprise workspace whose limits never get in the way (the fuzz measures input
 * handling and signatures, not rate limits). Always closed after `fn`.
 */
import { startService } from '../../server/start.ts';
import { registerSecret } from '../../src/redact.ts';

export interface FuzzTarget {
  baseUrl: string;
  /** Full-access key of the target workspace. */
  apiKey: string;
  adminToken: string;
}

export async function withEmbeddedDeployment<T>(
  faults: readonly string[],
  fn: (target: FuzzTarget) => Promise<T>,
): Promise<T> {
  const svc = await startService({
    faults,
    webhookRetryDelaysMs: [50, 100, 200],
    enterprise: { ratePerMin: 1_000_000, burst: 1_000_000 },
  });
  try {
    const apiKey = svc.credentials.workspaces.enterprise.keys.full;
    registerSecret(apiKey);
    registerSecret(svc.credentials.adminToken);
    return await fn({ baseUrl: svc.baseUrl, apiKey, adminToken: svc.credentials.adminToken });
  } finally {
    await svc.close();
  }
}
