/**
 * The fuzz area of `harness run`: the black-box receiver properties against the example
 * receiver (a self-check of the fuzzer and of the receiver users copy), bounded in cases.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createReceiver } from '../../examples/receiver/receiver.ts';
import type { HarnessConfig } from '../config.ts';
import { registerSecret } from '../redact.ts';
import { runReceiverFuzz } from '../receiver-fuzz/index.ts';
import type { AreaSummary } from '../report/summary.ts';

export async function runFuzzStep(
  _cfg: HarnessConfig,
  log: (l: string) => void,
): Promise<AreaSummary> {
  const secret = `whsec_${randomBytes(18).toString('base64url')}`;
  registerSecret(secret);
  const server = createReceiver({ secret });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const result = await runReceiverFuzz({
      url: `http://127.0.0.1:${port}/webhook`,
      secret,
      form: 'both',
      cases: 25,
      maxSeconds: 60,
      rate: Number.POSITIVE_INFINITY,
    });
    const failed = result.properties.filter((p) => p.status === 'failed');
    const skipped = result.properties.filter((p) => p.status === 'skipped');
    log(
      `  example receiver: ${result.properties.length - failed.length - skipped.length} properties hold, ${failed.length} failed, ${result.requests} requests in ${(result.durationMs / 1000).toFixed(1)} s (seed ${result.seed})`,
    );
    return {
      verdict: failed.length ? 'fail' : 'pass',
      headline: `receiver fuzz (example receiver, both forms): ${result.properties.length} property runs, ${failed.length} failed, ${result.requests} requests, seed ${result.seed}`,
      documentedFailures: failed.map((p) => ({
        check: `fuzz.${p.name}`,
        provenance: 'documented' as const,
        rule: p.rule,
        received: p.reason ?? 'property failed',
        expected: 'the property holds',
        repro: p.counterexample,
      })),
      assumptionMismatches: [],
      notRun: skipped.map((p) => ({ name: `fuzz.${p.name}`, reason: 'time budget exhausted' })),
      details: { receiver: result },
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
