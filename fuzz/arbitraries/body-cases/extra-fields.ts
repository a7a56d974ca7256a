/** Unknown fields added to an object of a valid body (`extra-fields`). */
import fc from 'fast-check';
import { sitePath } from '../schema-arb.ts';
import type { BodyCase } from './body-case.ts';
import { isObjectAt, setAt } from './json-path.ts';
import { type BodyTargets, pick } from './targets.ts';

const UNKNOWN_KEYS = [
  'id',
  'workspace_id',
  'created_at',
  'status',
  'internal',
  '__proto__',
  'constructor',
  'prototype',
  '',
  ' ',
  '😀',
  'x'.repeat(300),
  '$ref',
  'subject ',
];

export function extraFieldsArb(t: BodyTargets): fc.Arbitrary<BodyCase> {
  return fc
    .record({
      json: t.valid,
      keys: fc.array(fc.constantFrom(...UNKNOWN_KEYS), { minLength: 1, maxLength: 3 }),
      at: fc.nat(),
      v: fc.jsonValue({ maxDepth: 2 }),
    })
    .map(({ json, keys, at, v }): BodyCase => {
      // Only objects the valid body has: an absent optional object would be created
      // without its required fields, a second deviation the case does not name.
      const present = t.objects.filter((o) => isObjectAt(json, o.path));
      const site = pick(present.length > 0 ? present : [t.objects[0]!], at);
      const base = site.path;
      // A key the schema declares at this object is not unknown (TicketUpdate.status,
      // MessageCreate.internal): adding it would be a wrong value, not an extra field.
      const unknown = keys.filter((k) => !site.declared.includes(k));
      const added = unknown.length > 0 ? unknown : ['x-harness-unknown'];
      let out = json;
      for (const k of added) out = setAt(out, [...base, k], v);
      return {
        kind: 'extra-fields',
        note: `unknown field(s) ${added.map((k) => JSON.stringify(k.length > 20 ? `${k.slice(0, 20)}…` : k)).join(', ')} at ${sitePath(base)}`,
        at: base,
        keys: [...new Set(added)],
        json: out,
      };
    });
}
