/**
 * What the API input fuzz sends to one operation: its sampler first (every input class the
 * operation has a place for, by construction: fuzz/arbitraries/body-cases/class-sampler.ts and
 * query-case-arb.ts; and each required field dropped), then random cases (a body schema's mutations, api-body-arb.ts, or a list's
 * query strings); and which input classes apply to it, so a class it never sent shows as 0.
 */
import type fc from 'fast-check';
import { type BodyCase, bodyCaseArb } from '../arbitraries/api-body-arb.ts';
import { classSampler, plainValue } from '../arbitraries/body-cases/class-sampler.ts';
import { deleteAt } from '../arbitraries/body-cases/json-path.ts';
import { sitePath } from '../arbitraries/schema-arb.ts';
import { type BodyTargets, bodyTargets } from '../arbitraries/body-cases/targets.ts';
import type { JsonSchema } from '../arbitraries/schema-arb.ts';
import {
  applicableClasses,
  type ClassContext,
  type ClassFamily,
} from '../arbitraries/input-classes.ts';
import { packedSampler } from '../arbitraries/body-cases/packed-sampler.ts';
import { packedQuerySampler, queryCaseArb, querySampler } from '../arbitraries/query-case-arb.ts';
import type { InputOperation } from './operations.ts';
import { componentSchema, resolveSpecRef } from './spec-schemas.ts';

/** How many cases of a run carried one input class. */
export interface ClassCount {
  name: string;
  family: ClassFamily;
  what: string;
  cases: number;
}

export interface OperationCases {
  /** Sent first, in this order, whatever the budget. */
  sampler: BodyCase[];
  /** Drawn after the sampler, up to the case budget. */
  random: fc.Arbitrary<BodyCase>;
  /** How a case of this operation is read for its input classes. */
  classes: ClassContext;
}

/** Which input classes apply to `op`, and how its cases are read for them. */
export function classContextOf(op: InputOperation, bodyLimit: number): ClassContext {
  if (op.params) {
    const integer = op.params.find(
      (p) =>
        p.schema.type === 'integer' &&
        p.schema.minimum !== undefined &&
        p.schema.maximum !== undefined,
    );
    return {
      bodyLimit,
      body: false,
      text: op.params.some((p) => p.schema.type === 'string' && !p.schema.enum),
      ...(integer
        ? {
            integer: {
              name: integer.name,
              min: integer.schema.minimum!,
              max: integer.schema.maximum!,
            },
          }
        : {}),
    };
  }
  const t = bodyTargets(componentSchema(op.schema), resolveSpecRef);
  const tags = t.arrays.find((a) => a.path.length === 1 && a.path[0] === 'tags');
  return {
    bodyLimit,
    body: true,
    text: t.strings.some((s) => s.schema.format === undefined),
    ...(tags ? { tagsMax: tags.schema.maxItems! } : {}),
  };
}

/**
 * A plain body with each required field dropped in turn: the one invalid body every deployment
 * must refuse with a 4xx (a 5xx there is the commonest input bug), sent whatever the budget so a
 * gate-sized fuzz (fuzz/fuzz-size.ts: the sampler alone) still finds it, never by the seed's luck.
 */
function requiredDropped(schema: JsonSchema, t: BodyTargets): BodyCase[] {
  const plain = plainValue(schema, t.resolve);
  return t.required.map((site) => ({
    kind: 'drop-required',
    note: `sampler: required ${sitePath(site.path)} dropped`,
    json: deleteAt(plain, site.path),
  }));
}

/**
 * The cases of `op`; `packed` (the gate-sized fuzz): the packed sampler instead of the full one —
 * every class still sent, several to a case (packed-sampler.ts).
 */
export function operationCases(
  op: InputOperation,
  bodyLimit: number,
  packed = false,
): OperationCases {
  const classes = classContextOf(op, bodyLimit);
  if (op.params)
    return {
      sampler: packed ? packedQuerySampler(op.params) : querySampler(op.params),
      random: queryCaseArb(op.params),
      classes,
    };
  const schema = componentSchema(op.schema);
  const targets = bodyTargets(schema, resolveSpecRef);
  return {
    sampler: packed
      ? packedSampler(schema, targets, { bodyLimit })
      : [...classSampler(schema, targets, { bodyLimit }), ...requiredDropped(schema, targets)],
    random: bodyCaseArb(schema, resolveSpecRef, { bodyLimit }),
    classes,
  };
}

/** Every class that applies to the operation, with how many cases carried it (0 included). */
export function classCounts(ctx: ClassContext, counts: Record<string, number>): ClassCount[] {
  return applicableClasses(ctx).map((c) => ({ ...c, cases: counts[c.name] ?? 0 }));
}
