/**
 * The reference deployment as the fuzz tests run the fuzzers against it: started in this process
 * with the faults under test, reached with its enterprise key, whose rate limit no test can spend
 * (these tests judge the fuzzers' rules, not the limit; test/harness/rate-limit-inconclusive.test.ts
 * covers a spent key). The API input fuzz and the delivery check are called here with that key and
 * their usual time caps, so a test states only the faults, the case count and what it asserts.
 */
import { adminClient } from '../../core/target/admin-client.ts';
import { type ApiInputFuzzResult, runApiInputFuzz } from '../../fuzz/api-input/api-input.ts';
import type { ApiInputOperation } from '../../fuzz/api-input/operations.ts';
import { runDeliveryCheck } from '../../fuzz/deliveries/delivery-check.ts';
import type { DeliveryCheckResult } from '../../fuzz/deliveries/types.ts';
import type { ServiceOptions } from '../../server/app.ts';
import { type RunningService, startService } from '../../server/start.ts';

/** A rate limit no fuzz test reaches. */
export const UNLIMITED = { ratePerMin: 1_000_000, burst: 1_000_000 };

/**
 * The deployment with `faults` (and `readings`) and the unlimited enterprise key; `webhooks` for
 * the delivery check: retries 20 and 40 ms apart, so a failing delivery's retries do not hold the
 * test up.
 */
export function startFuzzTarget(
  faults: string[] = [],
  { webhooks = false, readings = [] }: { webhooks?: boolean; readings?: string[] } = {},
): Promise<RunningService> {
  const opts: ServiceOptions = { faults, readings, enterprise: UNLIMITED };
  if (webhooks) opts.webhookRetryDelaysMs = [20, 40];
  return startService(opts);
}

/**
 * The API input fuzz with `svc`'s enterprise key, `numRuns` cases an operation, 120 s at most; at
 * `baseUrl` when a proxy stands in front of the deployment; `packed`: the gate-sized fuzz.
 */
export function apiInputFuzzOn(
  svc: RunningService,
  numRuns: number,
  {
    baseUrl = svc.baseUrl,
    operations,
    packed,
  }: { baseUrl?: string; operations?: ApiInputOperation[]; packed?: boolean } = {},
): Promise<ApiInputFuzzResult> {
  return runApiInputFuzz({
    baseUrl,
    apiKey: svc.credentials.workspaces.enterprise.keys.full,
    numRuns,
    maxSeconds: 120,
    operations,
    ...(packed ? { packed } : {}),
  });
}

/** The delivery check with `svc`'s enterprise key and admin surface, `numRuns` scenarios in `maxSeconds`. */
export function deliveryCheckOn(
  svc: RunningService,
  numRuns: number,
  maxSeconds: number,
): Promise<DeliveryCheckResult> {
  return runDeliveryCheck({
    baseUrl: svc.baseUrl,
    apiKey: svc.credentials.workspaces.enterprise.keys.full,
    admin: adminClient(svc.baseUrl, svc.credentials.adminToken),
    numRuns,
    maxSeconds,
  });
}
