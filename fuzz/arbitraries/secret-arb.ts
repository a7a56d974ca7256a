/** Signing secrets: strings (keyed by their UTF-8 bytes) and raw byte keys, never empty. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';

export const secretArb = () =>
  fc.oneof(
    { arbitrary: fc.string({ minLength: 1, maxLength: 80 }), weight: 4 },
    { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), weight: 2 },
    { arbitrary: fc.uint8Array({ minLength: 1, maxLength: 100 }), weight: 2 },
  );

/** A string secret (what `@octokit/webhooks-methods` accepts). */
export const stringSecretArb = () => fc.string({ unit: 'binary', minLength: 1, maxLength: 80 });

/**
 * The key HMAC actually uses: keys longer than the 64-byte block are hashed first, shorter ones are
 * zero-padded. Two secrets with the same effective key sign identically, so "a wrong secret is
 * rejected" holds only for secrets whose effective keys differ.
 */
export function effectiveHmacKey(secret: string | Uint8Array): Buffer {
  let key = Buffer.from(secret);
  if (key.length > 64) key = createHash('sha256').update(key).digest();
  let end = key.length;
  while (end > 0 && key[end - 1] === 0) end--;
  return key.subarray(0, end);
}

/** Two secrets with different effective HMAC keys. */
export const distinctSecretsArb = () =>
  fc
    .tuple(secretArb(), secretArb())
    .filter(([a, b]) => !effectiveHmacKey(a).equals(effectiveHmacKey(b)));
