/**
 * One field at, or one past, a length limit of its schema: a string at maxLength (`at-limit`)
 * or one code point over (`too-long`), an empty string under minLength (`too-short`), an array at
 * maxItems (`at-limit`) or one item over (`too-many-items`).
 */
import fc from 'fast-check';
import { sitePath, validValueArb } from '../schema-arb.ts';
import type { BodyCase } from './body-case.ts';
import { setAt } from './json-path.ts';
import { type BodyTargets, pick } from './targets.ts';

/** One character repeated to an exact number of code points; astral ones count once. */
const limitUnitArb = () => fc.constantFrom('a', 'é', '😀', '中', 'ש', '"', '\\', '\u2028');

/** A string exactly at its maxLength (`over` 0) or one code point past it (`over` 1). */
export function stringLengthArb(t: BodyTargets, over: 0 | 1): fc.Arbitrary<BodyCase> | undefined {
  if (t.limited.length === 0) return undefined;
  return fc
    .record({ json: t.valid, at: fc.nat(), unit: limitUnitArb() })
    .map(({ json, at, unit }): BodyCase => {
      const site = pick(t.limited, at);
      const n = site.schema.maxLength! + over;
      // An email at the limit must still be an email: pad the local part.
      const email = site.schema.format === 'email';
      const value = email ? `${'a'.repeat(n - 12)}@example.com` : unit.repeat(n);
      return {
        kind: over ? 'too-long' : 'at-limit',
        note: `${sitePath(site.path)} of ${n} code points (${email ? 'a long email' : `${JSON.stringify(unit)} repeated`}; maxLength ${site.schema.maxLength})`,
        json: setAt(json, site.path, value),
      };
    });
}

export function tooShortArb(t: BodyTargets): fc.Arbitrary<BodyCase> | undefined {
  if (t.nonEmpty.length === 0) return undefined;
  return fc.record({ json: t.valid, at: fc.nat() }).map(({ json, at }): BodyCase => {
    const site = pick(t.nonEmpty, at);
    return {
      kind: 'too-short',
      note: `${sitePath(site.path)} empty (minLength ${site.schema.minLength})`,
      json: setAt(json, site.path, ''),
    };
  });
}

export function arrayLengthArb(t: BodyTargets): fc.Arbitrary<BodyCase> | undefined {
  if (t.arrays.length === 0) return undefined;
  return fc
    .record({ json: t.valid, at: fc.nat(), over: fc.constantFrom(0, 1) })
    .chain(({ json, at, over }) => {
      const site = pick(t.arrays, at);
      const n = site.schema.maxItems! + over;
      return fc
        .array(validValueArb(site.schema.items ?? {}, t.resolve), { minLength: 1, maxLength: 3 })
        .map(
          (seed): BodyCase => ({
            kind: over ? 'too-many-items' : 'at-limit',
            note: `${sitePath(site.path)} with ${n} items (maxItems ${site.schema.maxItems})`,
            json: setAt(
              json,
              site.path,
              Array.from({ length: n }, (_, i) =>
                typeof seed[0] === 'string'
                  ? `${seed[i % seed.length]}${i}`.slice(-64)
                  : seed[i % seed.length],
              ),
            ),
          }),
        );
    });
}
