/**
 * An operation's parameters across versions: paired by identity, moved between locations,
 * removed, added, made required or optional, and their schemas compared.
 */
import { join } from './pointer.ts';
import { diffSchemaAt } from './schema-diff.ts';
import { type Ctx, emit, enter, type Obj, obj, resolve, type Side } from './walk-context.ts';

/** One operation as it stands in its document: parameters are declared on both item and op. */
export interface OpSite {
  path: string;
  item: Obj;
  itemPtr: string;
  op: Obj;
  opPtr: string;
}

interface Param {
  raw: unknown;
  ptr: string;
  p: Obj;
  name: string;
  in: string;
  /** Identity across versions: path parameters by position, so renaming one is not a change. */
  key: string;
}

function collectParams(doc: unknown, site: OpSite): Param[] {
  const slots = [...site.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  const byId = new Map<string, Param>();
  const add = (list: unknown, ptr: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, i) => {
      const p = obj(resolve(doc, raw, join(ptr, 'parameters', i)).node);
      const name = String(p.name ?? '');
      const where = String(p.in ?? '');
      const slot = slots.indexOf(name);
      const key =
        where === 'path' && slot >= 0
          ? `path#${slot}`
          : `${where}:${where === 'header' ? name.toLowerCase() : name}`;
      byId.set(key, { raw, ptr: join(ptr, 'parameters', i), p, name, in: where, key });
    });
  };
  add(site.item.parameters, site.itemPtr); // operation-level parameters override path-level ones
  add(site.op.parameters, site.opPtr);
  return [...byId.values()];
}

export function diffParams(ctx: Ctx, side: Side, o: OpSite, n: OpSite): void {
  const op = collectParams(ctx.oldDoc, o);
  const np = collectParams(ctx.newDoc, n);
  const pre = side.prefix;
  const newByKey = new Map(np.map((p) => [p.key, p]));
  const consumed = new Set<string>();
  for (const a of op) {
    const z = newByKey.get(a.key);
    if (z) {
      consumed.add(z.key);
      diffParam(ctx, side, a, z);
      continue;
    }
    const moved = np.find(
      (x) =>
        !consumed.has(x.key) &&
        x.in !== a.in &&
        x.name.toLowerCase() === a.name.toLowerCase() &&
        !op.some((y) => y.key === x.key),
    );
    if (moved) {
      consumed.add(moved.key);
      const msg = `parameter \`${a.name}\` moved from ${a.in} to ${moved.in}`;
      emit(ctx, `${pre}-parameter-moved`, msg, a.ptr, moved.ptr);
    } else if (side.polarity === 'out') {
      const req = a.p.required === true;
      const rule = `${pre}-${req ? 'parameter-removed' : 'optional-parameter-removed'}`;
      emit(ctx, rule, `${a.in} parameter \`${a.name}\` removed`, a.ptr, n.opPtr);
    } else {
      const msg = `${a.in} parameter \`${a.name}\` removed; clients still sending it may be rejected`;
      emit(ctx, `${pre}-parameter-removed`, msg, a.ptr, n.opPtr);
    }
  }
  for (const z of np) {
    if (consumed.has(z.key)) continue;
    const req = z.p.required === true;
    const breaking = side.polarity === 'in' && req;
    emit(
      ctx,
      `${pre}-${breaking ? 'parameter-added-required' : 'parameter-added'}`,
      `${req ? 'required' : 'optional'} ${z.in} parameter \`${z.name}\` added`,
      o.opPtr,
      z.ptr,
    );
  }
}

/** The same parameter in both versions. */
function diffParam(ctx: Ctx, side: Side, a: Param, z: Param): void {
  const e = enter(ctx, a.raw, a.ptr, z.raw, z.ptr);
  const isReq = z.p.required === true;
  if ((a.p.required === true) !== isReq)
    emit(
      ctx,
      `${side.prefix}-parameter-became-${isReq ? 'required' : 'optional'}`,
      `${a.in} parameter \`${z.name}\` became ${isReq ? 'required' : 'optional'}`,
      // The definition, so a shared parameter component is one finding for every operation.
      e.o!.ptr,
      e.n!.ptr,
    );
  const sub: Ctx = {
    ...ctx,
    where: `${ctx.where} → ${z.in} parameter ${z.name}`,
    param: true,
    pathParam: z.in === 'path',
  };
  diffSchemaAt(sub, side, e.o!, e.n!, z.name);
}
