/**
 * Ways to spoil a canonical signature header value, as data, so properties (in-process and over
 * HTTP) can draw them, shrink them and print them. Each mutation is one kind of mistake a sender,
 * an attacker or a proxy makes; `applySignatureMutation` turns it into the header value.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import {
  SIGNATURE_PREFIX,
  type SignatureForm,
  signatureValue,
} from '../../core/signature/index.ts';

export type SignatureMutation =
  | { kind: 'flip-bit'; bit: number }
  | { kind: 'flip-digest-bit'; bit: number }
  | { kind: 'truncate'; keep: number }
  | { kind: 'extend'; suffix: string }
  | { kind: 'uppercase'; scope: 'hex' | 'all' }
  | { kind: 'prefix-mismatch'; prefix: string }
  | { kind: 'sha1' }
  | { kind: 'whitespace'; before: string; after: string }
  | { kind: 'wrong-secret'; secret: string }
  | { kind: 'garbage'; value: string };

export type SignatureMutationKind = SignatureMutation['kind'];

const hexChar = fc.constantFrom(...'0123456789abcdef');

export const flipBitArb = () =>
  fc.record({ kind: fc.constant('flip-bit' as const), bit: fc.nat() });
export const flipDigestBitArb = () =>
  fc.record({ kind: fc.constant('flip-digest-bit' as const), bit: fc.nat(255) });
export const truncateArb = () =>
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.nat() });
export const extendArb = () =>
  fc.record({
    kind: fc.constant('extend' as const),
    suffix: fc.oneof(
      fc.string({ unit: hexChar, minLength: 1, maxLength: 70 }),
      fc.string({ minLength: 1, maxLength: 10 }),
    ),
  });
export const uppercaseArb = () =>
  fc.record({
    kind: fc.constant('uppercase' as const),
    scope: fc.constantFrom('hex' as const, 'all' as const),
  });
/**
 * The prefix wrong for the form: in the prefixed form the `sha256=` is removed (prefix `''`) or
 * replaced; in the plain form one is added.
 */
export const prefixMismatchArb = () =>
  fc.record({
    kind: fc.constant('prefix-mismatch' as const),
    prefix: fc.constantFrom('', 'sha256=', 'SHA256=', 'sha256:', 'sha-256=', 'v1=', 'sha512='),
  });
export const sha1Arb = () => fc.constant({ kind: 'sha1' as const });
const ws = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0'), maxLength: 3 });
export const whitespaceArb = () =>
  fc
    .record({ kind: fc.constant('whitespace' as const), before: ws, after: ws })
    .filter((m) => m.before.length + m.after.length > 0);
export const wrongSecretArb = () =>
  fc.record({
    kind: fc.constant('wrong-secret' as const),
    secret: fc.string({ minLength: 1, maxLength: 40 }),
  });
export const garbageArb = () =>
  fc.record({
    kind: fc.constant('garbage' as const),
    value: fc.oneof(
      fc.string({ maxLength: 100 }),
      fc.string({ unit: 'binary', maxLength: 100 }),
      fc.string({ unit: hexChar, minLength: 64, maxLength: 64 }),
      fc.string({ unit: hexChar, minLength: 64, maxLength: 64 }).map((h) => SIGNATURE_PREFIX + h),
    ),
  });

const wireMutationArbs = () => [
  flipBitArb(),
  flipDigestBitArb(),
  truncateArb(),
  extendArb(),
  uppercaseArb(),
  prefixMismatchArb(),
  sha1Arb(),
  wrongSecretArb(),
  garbageArb(),
];

/**
 * Every mutation that survives an HTTP hop. Surrounding whitespace does not: HTTP parsers strip
 * it before a receiver sees the header, so the black-box receiver fuzz uses this set.
 */
export const wireSignatureMutationArb = () => fc.oneof(...wireMutationArbs());

/** Any mutation (whitespace in its historical place, so seeded runs replay as before). */
export const signatureMutationArb = () => {
  const arbs: fc.Arbitrary<SignatureMutation>[] = wireMutationArbs();
  arbs.splice(7, 0, whitespaceArb());
  return fc.oneof(...arbs);
};

/** What a mutation needs besides the canonical value. */
export interface MutationContext {
  form: SignatureForm;
  secret: string | Uint8Array;
  body: Uint8Array;
}

function hexOf(form: SignatureForm, canonical: string): string {
  return form === 'prefixed' ? canonical.slice(SIGNATURE_PREFIX.length) : canonical;
}

function withForm(form: SignatureForm, hex: string): string {
  return form === 'prefixed' ? SIGNATURE_PREFIX + hex : hex;
}

/** The header value `mutation` makes of `canonical`. It may equal `canonical` (callers check). */
export function applySignatureMutation(
  canonical: string,
  mutation: SignatureMutation,
  ctx: MutationContext,
): string {
  const hex = hexOf(ctx.form, canonical);
  switch (mutation.kind) {
    case 'flip-bit': {
      const bit = mutation.bit % (canonical.length * 8);
      const i = Math.floor(bit / 8);
      const code = canonical.charCodeAt(i) ^ (1 << (bit % 8));
      return canonical.slice(0, i) + String.fromCharCode(code) + canonical.slice(i + 1);
    }
    case 'flip-digest-bit': {
      const digest = Buffer.from(hex, 'hex');
      const bit = mutation.bit % (digest.length * 8);
      digest[Math.floor(bit / 8)]! ^= 1 << (bit % 8);
      return withForm(ctx.form, digest.toString('hex'));
    }
    case 'truncate':
      return canonical.slice(0, mutation.keep % canonical.length);
    case 'extend':
      return canonical + mutation.suffix;
    case 'uppercase':
      return mutation.scope === 'all'
        ? canonical.toUpperCase()
        : withForm(ctx.form, hex.toUpperCase());
    case 'prefix-mismatch':
      return ctx.form === 'prefixed'
        ? mutation.prefix + hex
        : (mutation.prefix || SIGNATURE_PREFIX) + hex;
    case 'sha1': {
      const sha1 = createHmac('sha1', ctx.secret).update(ctx.body).digest('hex');
      return ctx.form === 'prefixed' ? `sha1=${sha1}` : sha1;
    }
    case 'whitespace':
      return mutation.before + canonical + mutation.after;
    case 'wrong-secret':
      return withForm(
        ctx.form,
        createHmac('sha256', mutation.secret).update(ctx.body).digest('hex'),
      );
    case 'garbage':
      return mutation.value;
  }
}

/** The canonical value signed for `ctx` (by core/signature) and what `mutation` makes of it. */
export function spoilCanonical(mutation: SignatureMutation, ctx: MutationContext) {
  const canonical = signatureValue(ctx.form, ctx.secret, ctx.body);
  return { canonical, value: applySignatureMutation(canonical, mutation, ctx) };
}

/** One line for a transcript: what was done to the signature, never the value itself. */
export function describeSignatureMutation(
  mutation: SignatureMutation,
  form?: SignatureForm,
): string {
  switch (mutation.kind) {
    case 'flip-bit':
      return `one bit flipped in the header value (bit ${mutation.bit} mod length)`;
    case 'flip-digest-bit':
      return `bit ${mutation.bit} of the decoded digest flipped, re-encoded as lowercase hex`;
    case 'truncate':
      return `valid value truncated to its first ${mutation.keep} characters (mod length)`;
    case 'extend':
      return `valid value followed by ${JSON.stringify(mutation.suffix)}`;
    case 'uppercase':
      return mutation.scope === 'all'
        ? 'valid value in uppercase'
        : 'valid hex digits in uppercase';
    case 'prefix-mismatch':
      if (form === 'plain')
        return `valid hex behind an undocumented prefix ${JSON.stringify(mutation.prefix || SIGNATURE_PREFIX)}`;
      return mutation.prefix === ''
        ? 'valid hex without the sha256= prefix'
        : `valid hex behind ${JSON.stringify(mutation.prefix)} instead of sha256=`;
    case 'sha1':
      return 'HMAC-SHA1 of the body instead of HMAC-SHA256';
    case 'whitespace':
      return `valid value wrapped in whitespace ${JSON.stringify([mutation.before, mutation.after])}`;
    case 'wrong-secret':
      return 'HMAC-SHA256 of the body under a different secret';
    case 'garbage':
      return `arbitrary value ${JSON.stringify(mutation.value)}`;
  }
}
