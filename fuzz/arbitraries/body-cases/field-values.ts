/**
 * One field missing or holding a value its schema refuses: a required field dropped
 * (`drop-required`), a value of another type (`wrong-type`), a near-miss of the enum
 * (`out-of-enum`), a string that is not an email (`bad-format`).
 */
import fc from 'fast-check';
import { sitePath } from '../schema-arb.ts';
import type { BodyCase } from './body-case.ts';
import { deleteAt, setAt } from './json-path.ts';
import { type BodyTargets, pick } from './targets.ts';

/** A value of a type other than the site's. */
function otherTypeArb(type: string | undefined) {
  const all: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.constantFrom('', 'x', '0', 'true', 'null')],
    ['integer', fc.integer()],
    ['number', fc.constantFrom(1.5, -0, 1e308, Number.MAX_SAFE_INTEGER + 2)],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })],
    [
      'object',
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    ],
  ];
  const others = all.filter(([t]) => t !== type && !(type === 'number' && t === 'integer'));
  return fc.oneof(...others.map(([, a]) => a));
}

export function dropRequiredArb(t: BodyTargets): fc.Arbitrary<BodyCase> | undefined {
  if (t.required.length === 0) return undefined;
  return fc.record({ json: t.valid, at: fc.nat() }).map(({ json, at }): BodyCase => {
    const site = pick(t.required, at);
    return {
      kind: 'drop-required',
      note: `required ${sitePath(site.path)} dropped`,
      json: deleteAt(json, site.path),
    };
  });
}

export function wrongTypeArb(t: BodyTargets): fc.Arbitrary<BodyCase> | undefined {
  if (t.sites.length === 0) return undefined;
  return fc.record({ json: t.valid, at: fc.nat() }).chain(({ json, at }) => {
    const site = pick(t.sites, at);
    return otherTypeArb(site.schema.type).map(
      (v): BodyCase => ({
        kind: 'wrong-type',
        note: `${sitePath(site.path)} is ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}, not ${site.schema.type}`,
        json: setAt(json, site.path, v),
      }),
    );
  });
}

export function outOfEnumArb(t: BodyTargets): fc.Arbitrary<BodyCase> | undefined {
  if (t.enums.length === 0) return undefined;
  return fc
    .record({
      json: t.valid,
      at: fc.nat(),
      v: fc.constantFrom(
        'urgent',
        'LOW',
        ' normal',
        'high ',
        '',
        'null',
        'clos\u0065\u0301d',
        'ОPEN',
      ),
    })
    .filter(({ at, v }) => !pick(t.enums, at).schema.enum!.includes(v))
    .map(({ json, at, v }): BodyCase => {
      const site = pick(t.enums, at);
      return {
        kind: 'out-of-enum',
        note: `${sitePath(site.path)} = ${JSON.stringify(v)}, not one of ${site.schema.enum!.join(', ')}`,
        json: setAt(json, site.path, v),
      };
    });
}

export function badFormatArb(t: BodyTargets): fc.Arbitrary<BodyCase> | undefined {
  if (t.emails.length === 0) return undefined;
  return fc
    .record({
      json: t.valid,
      at: fc.nat(),
      v: fc.constantFrom(
        'not-an-email',
        'a@',
        '@example.com',
        'a@@example.com',
        ' a@example.com',
        'a@example.com\n',
        'a b@example.com',
        `${'a'.repeat(250)}@example.com`,
        '<script>@x.io',
      ),
    })
    .map(({ json, at, v }): BodyCase => {
      const site = pick(t.emails, at);
      return {
        kind: 'bad-format',
        note: `${sitePath(site.path)} = ${JSON.stringify(v.length > 40 ? `${v.slice(0, 20)}…` : v)} is not an email`,
        json: setAt(json, site.path, v),
      };
    });
}
