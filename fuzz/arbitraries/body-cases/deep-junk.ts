/** A value nested thousands of levels deep inside a valid body (`deep-junk`). */
import fc from 'fast-check';
import { sitePath } from '../schema-arb.ts';
import type { BodyCase } from './body-case.ts';
import { setAt } from './json-path.ts';
import { type BodyTargets, pick } from './targets.ts';

/**
 * JSON text of a value nested `depth` levels deep: arrays, objects or a mix. Built as text, not
 * as a value: a deep value overflows the stack of every recursive walker (`JSON.stringify`,
 * fast-check's reporter), which is the server's problem to survive, not the harness's.
 */
export function deepJsonText(depth: number, shape: 'array' | 'object' | 'mixed'): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i++) {
    const asArray = shape === 'array' || (shape === 'mixed' && i % 2 === 0);
    open += asArray ? '[' : '{"a":';
    close = (asArray ? ']' : '}') + close;
  }
  return `${open}"bottom"${close}`;
}

const DEEP_MARKER = '\u0000deep-junk\u0000';

export function deepJunkArb(t: BodyTargets): fc.Arbitrary<BodyCase> {
  return fc
    .record({
      json: t.valid,
      depth: fc.integer({ min: 32, max: 5000 }),
      shape: fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
      at: fc.nat(),
      asKnown: fc.boolean(),
    })
    .map(({ json, depth, shape, at, asKnown }): BodyCase => {
      const path = asKnown && t.sites.length > 0 ? pick(t.sites, at).path : ['junk'];
      const text = JSON.stringify(setAt(json, path, DEEP_MARKER));
      return {
        kind: 'deep-junk',
        note: `${shape} nested ${depth} deep at ${sitePath(path)}`,
        at: path,
        deep: { depth, shape },
        raw: text.replace(JSON.stringify(DEEP_MARKER), () => deepJsonText(depth, shape)),
      };
    });
}
