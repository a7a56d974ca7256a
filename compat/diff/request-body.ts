/**
 * An operation's request body (a webhook's payload) across versions: removed, added, made
 * required or optional, and its content compared.
 */
import { diffContent } from './media-types.ts';
import type { OpSite } from './parameters.ts';
import { join } from './pointer.ts';
import { type Ctx, emit, enter, obj, type Side } from './walk-context.ts';

export function diffRequestBody(ctx: Ctx, side: Side, o: OpSite, n: OpSite): void {
  const ob = o.op.requestBody;
  const nb = n.op.requestBody;
  if (ob === undefined && nb === undefined) return;
  const e = enter(
    ctx,
    ob,
    ob !== undefined ? join(o.opPtr, 'requestBody') : undefined,
    nb,
    nb !== undefined ? join(n.opPtr, 'requestBody') : undefined,
  );
  const orb = e.o ? obj(e.o.node) : undefined;
  const nrb = e.n ? obj(e.n.node) : undefined;
  const oPtrB = e.o?.ptr ?? o.opPtr;
  const nPtrB = e.n?.ptr ?? n.opPtr;
  const pre = side.prefix;
  const wasReq = orb?.required === true;
  const isReq = nrb?.required === true;
  const what = side.prefix === 'webhook' ? 'payload' : 'request body';
  if (orb && !nrb) {
    // A receiver loses the payload; a sender's data is refused or silently dropped.
    emit(ctx, `${pre}-body-removed`, `${what} removed`, oPtrB, n.opPtr);
    return;
  }
  if (!orb && nrb && !isReq) {
    emit(ctx, `${pre}-body-added`, `optional ${what} added`, o.opPtr, nPtrB);
    return;
  }
  if (wasReq !== isReq) {
    emit(
      ctx,
      `${pre}-body-became-${isReq ? 'required' : 'optional'}`,
      `${what} became ${isReq ? 'required' : 'optional'}`,
      orb ? oPtrB : o.opPtr,
      nPtrB,
    );
  }
  if (orb && nrb) diffContent({ ...ctx, where: `${ctx.where} → ${what}` }, side, what, e.o!, e.n!);
}
