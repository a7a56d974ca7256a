/**
 * An operation's responses (a webhook's acknowledgements) across versions, paired by status
 * code: removed, added, and the headers (paired case-insensitively) and content of each pair
 * compared.
 */
import { diffContent } from './media-types.ts';
import type { OpSite } from './parameters.ts';
import { join } from './pointer.ts';
import { diffSchemaAt } from './schema-diff.ts';
import { type Ctx, emit, enter, isObj, obj, type Resolved, type Side } from './walk-context.ts';

export function diffResponses(ctx: Ctx, side: Side, o: OpSite, n: OpSite): void {
  const or = obj(o.op.responses);
  const nr = obj(n.op.responses);
  const orPtr = join(o.opPtr, 'responses');
  const nrPtr = join(n.opPtr, 'responses');
  const pre = side.prefix;
  for (const [code, oresp] of Object.entries(or)) {
    const nresp = nr[code];
    if (nresp === undefined) {
      // A client that checks for the success status it was promised (201) now sees another
      // (200) as unexpected; a removed error status is one less case to handle.
      const success = side.polarity === 'out' && /^2/.test(code);
      emit(
        ctx,
        success ? `${pre}-success-status-removed` : `${pre}-status-removed`,
        `status ${code} removed`,
        join(orPtr, code),
        isObj(n.op.responses) ? nrPtr : n.opPtr,
      );
      continue;
    }
    const e = enter(ctx, oresp, join(orPtr, code), nresp, join(nrPtr, code));
    const sub: Ctx = { ...ctx, where: `${ctx.where} → ${code}` };
    if (side.polarity === 'out') diffHeaders(sub, side, e.o!, e.n!);
    diffContent(sub, side, `status ${code}`, e.o!, e.n!);
  }
  for (const code of Object.keys(nr)) {
    if (code in or) continue;
    // A new status is something a client may now receive: widening for responses.
    emit(
      ctx,
      `${pre}-status-added`,
      `status ${code} added`,
      isObj(o.op.responses) ? orPtr : o.opPtr,
      join(nrPtr, code),
    );
  }
}

function diffHeaders(ctx: Ctx, side: Side, o: Resolved, n: Resolved): void {
  const oh = obj(obj(o.node).headers);
  const nh = obj(obj(n.node).headers);
  const lower = (h: object) => new Map(Object.keys(h).map((k) => [k.toLowerCase(), k]));
  const ol = lower(oh);
  const nl = lower(nh);
  const pre = side.prefix;
  for (const [lk, ok] of ol) {
    const ohPtr = join(o.ptr, 'headers', ok);
    const nk = nl.get(lk);
    if (nk === undefined) {
      const e = enter(ctx, oh[ok], ohPtr, undefined, undefined);
      const req = obj(e.o!.node).required === true;
      emit(
        ctx,
        `${pre}-${req ? 'header-removed' : 'optional-header-removed'}`,
        `header ${ok} removed`,
        e.o!.ptr,
        n.ptr,
      );
      continue;
    }
    const e = enter(ctx, oh[ok], ohPtr, nh[nk], join(n.ptr, 'headers', nk));
    const ov = obj(e.o!.node);
    const nv = obj(e.n!.node);
    const isReq = nv.required === true;
    if ((ov.required === true) !== isReq)
      emit(
        ctx,
        `${pre}-header-became-${isReq ? 'required' : 'optional'}`,
        `header ${nk} became ${isReq ? 'required' : 'optional'}`,
        e.o!.ptr,
        e.n!.ptr,
      );
    diffSchemaAt({ ...ctx, where: `${ctx.where} header ${nk}` }, side, e.o!, e.n!, nk);
  }
  for (const [lk, nk] of nl) {
    if (ol.has(lk)) continue;
    const e = enter(ctx, undefined, undefined, nh[nk], join(n.ptr, 'headers', nk));
    emit(ctx, `${pre}-header-added`, `header ${nk} added`, o.ptr, e.n!.ptr);
  }
}
