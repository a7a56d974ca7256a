/**
 * The JSON Schema part of `harness diff-spec`: each pair of schemas is folded into views
 * (`schema/view.ts`) and handed to the parts in `schema/`, one concept each.
 */
import { get, join } from './pointer.ts';
import { diffBranches } from './schema/branches.ts';
import { diffBounds, diffContentEncoding, diffDefault, diffPattern } from './schema/constraints.ts';
import { diffDiscriminator } from './schema/discriminator.ts';
import { diffEnum } from './schema/enum.ts';
import { diffFormat } from './schema/format.ts';
import { diffDependentRequired, diffProperties } from './schema/properties.ts';
import type { DiffSchema, Step } from './schema/step.ts';
import { diffSubSchemas } from './schema/sub-schemas.ts';
import { diffType } from './schema/type.ts';
import { view } from './schema/view.ts';
import { diffWrapped } from './schema/wrap.ts';
import { type Ctx, enter, obj, type Resolved, resolve, type Side, Sink } from './walk-context.ts';

/** The parts of a comparison, in the order their findings are reported. */
const PARTS: ((st: Step) => void)[] = [
  diffType,
  diffFormat,
  diffEnum,
  diffBounds,
  diffPattern,
  diffContentEncoding,
  diffDefault,
  diffDependentRequired,
  diffProperties,
  diffSubSchemas,
  diffDiscriminator,
  (st) => diffBranches(st, 'oneOf'),
  (st) => diffBranches(st, 'anyOf'),
];

/**
 * `diffSchema` for the `schema` of a message part's element (a parameter, a media type, a
 * header), resolved on each side. The result depends only on the pair and the place, not on the
 * operation, so it is computed once (with its own cycle guard, so it is complete) and replayed
 * for every other operation reaching the same pair with that operation's `where`.
 */
export function diffSchemaAt(ctx: Ctx, side: Side, o: Resolved, n: Resolved, path: string): void {
  const [oldNode, oldPtr] = [obj(o.node).schema, join(o.ptr, 'schema')];
  const [newNode, newPtr] = [obj(n.node).schema, join(n.ptr, 'schema')];
  const memo = ctx.memo;
  // Only a pair of referenced components is shared between operations; an inline schema is not.
  const ro = resolve(ctx.oldDoc, oldNode, oldPtr);
  const rn = resolve(ctx.newDoc, newNode, newPtr);
  const shared =
    ro.ptr !== oldPtr &&
    rn.ptr !== newPtr &&
    ro.node === get(ctx.oldDoc, ro.ptr) &&
    rn.node === get(ctx.newDoc, rn.ptr);
  if (!memo || !shared) {
    diffSchema(ctx, side, oldNode, oldPtr, newNode, newPtr, path);
    return;
  }
  const key = `${side.prefix}|${ctx.param ? 1 : 0}${ctx.pathParam ? 1 : 0}|${path}|${ro.ptr}|${rn.ptr}`;
  let found = memo.get(key);
  if (!found) {
    const sink = new Sink();
    diffSchema({ ...ctx, sink, visited: new Set() }, side, oldNode, oldPtr, newNode, newPtr, path);
    found = [...sink.byKey.values()].map((f) => ({ ...f, where: [] }));
    memo.set(key, found);
  }
  for (const f of found) ctx.sink.add({ ...f, where: [ctx.where] });
}

/**
 * Compares two schemas that sit at the same place of an exchange and emits what a client
 * would notice. `path` is a readable property path used in messages only.
 */
const diffSchema: DiffSchema = (parent, side, oldNode, oldPtr, newNode, newPtr, path) => {
  const { ctx, o, n } = enter(parent, oldNode, oldPtr, newNode, newPtr);
  if (!o || !n) return;
  const key = `${side.prefix}|${o.ptr}|${n.ptr}`;
  if (ctx.visited.has(key)) return;
  ctx.visited.add(key);
  const st: Step = {
    ctx,
    side,
    ov: view(ctx.oldDoc, o.node, o.ptr),
    nv: view(ctx.newDoc, n.node, n.ptr),
    name: path === '' && n.refName ? n.refName : path,
    diff: diffSchema,
  };
  // A schema wrapped in (or unwrapped from) a bare oneOf/anyOf is compared with the branches.
  if (diffWrapped(st)) return;
  for (const part of PARTS) part(st);
};
