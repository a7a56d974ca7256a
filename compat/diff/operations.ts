/**
 * Walking both documents: path items (and webhooks) paired across versions, then their
 * operations, each pair handed to the parts it is made of (security, parameters, request body,
 * responses) with the direction its values travel.
 */
import { diffParams, type OpSite } from './parameters.ts';
import { join } from './pointer.ts';
import { diffRequestBody } from './request-body.ts';
import { diffResponses } from './responses.ts';
import { diffSecurity } from './security.ts';
import { type Ctx, emit, enter, type Obj, obj, resolve, type Side } from './walk-context.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const REQUEST: Side = { polarity: 'in', prefix: 'request' };
const RESPONSE: Side = { polarity: 'out', prefix: 'response' };
const WEBHOOK: Side = { polarity: 'out', prefix: 'webhook' };
const WEBHOOK_RESPONSE: Side = { polarity: 'in', prefix: 'webhook-response' };

/** `/t/{id}` and `/t/{ticketId}` are the same path to a client. */
function normalisePath(p: string): string {
  return p.replace(/\{[^}]*\}/g, '{}');
}

/** How a path item or one of its operations is named in messages and `Finding.where`. */
type Label = (key: string, method?: string) => string;

/** A path item (or webhook) as it stands in one version. */
type Item = Omit<OpSite, 'op' | 'opPtr'>;

/** Pairs the path items (or webhooks) of both versions and walks each pair's operations. */
export function diffItems(root: Ctx, section: 'paths' | 'webhooks'): void {
  const webhook = section === 'webhooks';
  const normalise = webhook ? (k: string) => k : normalisePath;
  const oItems = obj(obj(root.oldDoc)[section]);
  const nItems = obj(obj(root.newDoc)[section]);
  const nByNorm = new Map(Object.keys(nItems).map((k) => [normalise(k), k]));
  const oNorm = new Set(Object.keys(oItems).map(normalise));
  const label: Label = (k, m) =>
    webhook
      ? `webhook ${k}${m ? ` (${m.toUpperCase()})` : ''}`
      : `${m ? `${m.toUpperCase()} ` : ''}${k}`;
  const noun = webhook ? 'webhook' : 'path';
  for (const [ok, oraw] of Object.entries(oItems)) {
    const nk = nByNorm.get(normalise(ok));
    const oPtr = join('', section, ok);
    const base: Ctx = { ...root, where: label(nk ?? ok) };
    if (nk === undefined) {
      const r = resolve(root.oldDoc, oraw, oPtr);
      const item = obj(r.node);
      const sunsets = METHODS.filter((m) => item[m] !== undefined).map((m) =>
        sunsetOf(obj(resolve(root.oldDoc, item[m], join(r.ptr, m)).node)),
      );
      // A path with no operations was never callable: removing it breaks nobody.
      if (sunsets.length === 0) {
        const rule = `${noun}-without-operations-removed`;
        emit(base, rule, `${label(ok)} removed`, oPtr, join('', section));
        continue;
      }
      // The same sunset rule as one operation's removal: a path is as removable as the least
      // removable operation on it.
      const sunset = sunsets.every((x) => x === 'passed')
        ? 'passed'
        : sunsets.every((x) => x !== undefined)
          ? 'ahead'
          : undefined;
      const rm = removal(`${noun}-removed`, sunset);
      emit(base, rm.rule, `${label(ok)} removed${rm.why}`, oPtr, join('', section));
      continue;
    }
    const e = enter(base, oraw, oPtr, nItems[nk], join('', section, nk));
    const o: Item = { path: ok, item: obj(e.o!.node), itemPtr: e.o!.ptr };
    const n: Item = { path: nk, item: obj(e.n!.node), itemPtr: e.n!.ptr };
    for (const m of METHODS) diffMethod(base, webhook, label, o, n, m);
  }
  for (const nk of Object.keys(nItems)) {
    if (oNorm.has(normalise(nk))) continue;
    const nPtr = join('', section, nk);
    emit(
      { ...root, where: label(nk) },
      `${noun}-added`,
      `${label(nk)} added`,
      join('', section),
      nPtr,
    );
  }
}

/** One method of a paired path item: removed, added, (un)deprecated, or compared part by part. */
function diffMethod(ctx: Ctx, webhook: boolean, label: Label, o: Item, n: Item, m: string): void {
  const oop = o.item[m];
  const nop = n.item[m];
  if (oop === undefined && nop === undefined) return;
  const opCtx: Ctx = { ...ctx, where: label(n.path, m), visited: new Set() };
  const oOpPtr = join(o.itemPtr, m);
  const nOpPtr = join(n.itemPtr, m);
  if (nop === undefined) {
    const id = webhook ? 'webhook-operation-removed' : 'operation-removed';
    const rm = removal(id, sunsetOf(obj(resolve(ctx.oldDoc, oop, oOpPtr).node)));
    emit(opCtx, rm.rule, `${label(o.path, m)} removed${rm.why}`, oOpPtr, n.itemPtr);
    return;
  }
  if (oop === undefined) {
    const rule = webhook ? 'webhook-operation-added' : 'operation-added';
    emit(opCtx, rule, `${label(n.path, m)} added`, o.itemPtr, nOpPtr);
    return;
  }
  const r = enter(opCtx, oop, oOpPtr, nop, nOpPtr);
  const os: OpSite = { ...o, op: obj(r.o!.node), opPtr: r.o!.ptr };
  const ns: OpSite = { ...n, op: obj(r.n!.node), opPtr: r.n!.ptr };
  const wasDep = os.op.deprecated === true;
  const isDep = ns.op.deprecated === true;
  if (wasDep !== isDep) {
    const sunset = ns.op['x-sunset'];
    emit(
      opCtx,
      `${webhook ? 'webhook-' : ''}operation-${isDep ? 'deprecated' : 'undeprecated'}`,
      `${label(n.path, m)} ${isDep ? `deprecated${typeof sunset === 'string' ? `, sunset ${sunset}` : ''}` : 'no longer deprecated'}`,
      wasDep ? join(os.opPtr, 'deprecated') : os.opPtr,
      isDep ? join(ns.opPtr, 'deprecated') : ns.opPtr,
    );
  }
  diffOperation(opCtx, webhook, os, ns);
}

/**
 * Where a removed operation stood in its announced life: `deprecated: true` with an `x-sunset`
 * date (YYYY-MM-DD or RFC 3339) that has `passed` (removal was promised: INFO) or is still
 * `ahead` (removed early: ERR). A deprecation without a date promises no end, so removal stays ERR.
 */
function sunsetOf(op: Obj, now = Date.now()): 'passed' | 'ahead' | undefined {
  if (op.deprecated !== true) return undefined;
  const raw = op['x-sunset'];
  const t = typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(t)) return undefined;
  return t <= now ? 'passed' : 'ahead';
}

/**
 * The one sunset rule, for an operation and for a whole path (or webhook) alike: removed after
 * its announced sunset (`<id>-after-sunset`, INFO in rules.ts), before it
 * (`<id>-before-sunset`, ERR), and without a deprecation date the plain `<id>` (ERR).
 */
function removal(
  id: string,
  sunset: 'passed' | 'ahead' | undefined,
): { rule: string; why: string } {
  if (!sunset) return { rule: id, why: '' };
  const when = sunset === 'passed' ? 'after' : 'before';
  return { rule: `${id}-${when}-sunset`, why: ` ${when} its announced sunset` };
}

function diffOperation(ctx: Ctx, webhook: boolean, o: OpSite, n: OpSite): void {
  const sideIn = webhook ? WEBHOOK : REQUEST;
  const sideOut = webhook ? WEBHOOK_RESPONSE : RESPONSE;
  if (!webhook) diffSecurity(ctx, o.op, o.opPtr, n.op, n.opPtr);
  diffParams(ctx, sideIn, o, n);
  diffRequestBody(ctx, sideIn, o, n);
  diffResponses(ctx, sideOut, o, n);
}
