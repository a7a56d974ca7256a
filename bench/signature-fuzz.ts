/**
 * Throughput of the signature fuzzing: verifier property runs per second in-process, and receiver
 * fuzz cases per second over loopback against the example receiver. Prints numbers, asserts
 * nothing. Run: npx tsx bench/signature-fuzz.ts [--runs N] [--cases N]
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { createReceiver } from '../examples/receiver/receiver.ts';
import { bodyArb } from '../fuzz/arbitraries/body-arb.ts';
import { headerStringArb } from '../fuzz/arbitraries/header-value-arb.ts';
import { secretArb } from '../fuzz/arbitraries/secret-arb.ts';
import {
  applySignatureMutation,
  signatureMutationArb,
} from '../fuzz/arbitraries/signature-mutation-arb.ts';
import { fuzzSeed } from '../fuzz/shared/seed.ts';
import { fuzzLocalReceiver } from '../fuzz/receiver/local.ts';
import { SIGNATURE_FORMS, signatureValue, verifySignature } from '../core/signature/index.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '2000' }, cases: { type: 'string', default: '40' } },
});
const runs = Number(values.runs);
const cases = Number(values.cases);
const seed = fuzzSeed();

const verifierBenches: Array<[string, (form: 'prefixed' | 'plain') => fc.IProperty<any>]> = [
  [
    'valid signature verifies (small bodies)',
    (form) =>
      fc.property(secretArb(), bodyArb({ big: false }), (s, b) =>
        verifySignature(form, s, b, signatureValue(form, s, b)),
      ),
  ],
  [
    'valid signature verifies (bodyArb incl. rare ~1 MB)',
    (form) =>
      fc.property(secretArb(), bodyArb(), (s, b) =>
        verifySignature(form, s, b, signatureValue(form, s, b)),
      ),
  ],
  [
    'mutated signature rejected',
    (form) =>
      fc.property(secretArb(), bodyArb({ big: false }), signatureMutationArb(), (s, b, m) => {
        const c = signatureValue(form, s, b);
        const v = applySignatureMutation(c, m, { form, secret: s, body: b });
        return v === c || !verifySignature(form, s, b, v);
      }),
  ],
  [
    'arbitrary header string rejected',
    (form) =>
      fc.property(
        secretArb(),
        bodyArb({ big: false }),
        headerStringArb(),
        (s, b, v) => !verifySignature(form, s, b, v),
      ),
  ],
];

console.log(
  `signature fuzz benchmark (seed ${seed}, ${runs} runs per verifier property, ${cases} cases per receiver property)\n`,
);
console.log('in-process verifier properties');
for (const [name, make] of verifierBenches) {
  for (const form of SIGNATURE_FORMS) {
    fc.check(make(form), { seed, numRuns: Math.min(200, runs) }); // warm-up: JIT, not measured
    const t = performance.now();
    const details = fc.check(make(form), { seed, numRuns: runs });
    const ms = performance.now() - t;
    const rate = (details.numRuns / ms) * 1000;
    console.log(
      `  ${`${name} [${form}]`.padEnd(62)} ${rate.toFixed(0).padStart(8)} runs/s${details.failed ? '  (FAILED)' : ''}`,
    );
  }
}

console.log('\nreceiver fuzz over loopback (example receiver, no rate limit)');
const secret = randomBytes(24).toString('base64url');
const result = await fuzzLocalReceiver(createReceiver({ secret }), {
  secret,
  cases,
  maxSeconds: 300,
  seed,
});
const perSecond = (result.requests / result.durationMs) * 1000;
console.log(
  `  ${result.properties.length} property runs, ${result.requests} requests in ${(result.durationMs / 1000).toFixed(2)} s → ${perSecond.toFixed(0)} cases/s (${result.passed ? 'all passed' : 'FAILURES'})`,
);
