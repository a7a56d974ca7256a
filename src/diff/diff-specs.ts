import { join } from './pointer.ts';
import { diffSchemaAt } from './schema-diff.ts';
import { type Finding, LEVEL_RANK, type Level, type SpecDoc } from './types.ts';
import { type Ctx, emit, enter, isObj, resolve, type Side, Sink } from './walk-context.ts';

type Obj = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const REQUEST: Side = { polarity: 'in', prefix: 'request' };
const RESPONSE: Side = { polarity: 'out', prefix: 'response' };
const WEBHOOK: Side = { polarity: 'out', prefix: 'webhook' };
const WEBHOOK_RESPONSE: Side = { polarity: 'in', prefix: 'webhook-response' };

/** `/t/{id}` and `/t/{ticketId}` are the same path to a client. */
function normalisePath(p: string): string {
  return p.replace(/\{[^}]*\}/g, '{}');
}

function obj(v: unknown): Obj {
  return isObj(v) ? v : {};
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

function collectParams(
  doc: unknown,
  path: string,
  item: Obj,
  itemPtr: string,
  op: Obj,
  opPtr: string,
): Param[] {
  const slots = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
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
  add(item.parameters, itemPtr); // operation-level parameters override path-level ones
  add(op.parameters, opPtr);
  return [...byId.values()];
}

function diffParams(
  ctx: Ctx,
  side: Side,
  oldPath: string,
  newPath: string,
  o: { item: Obj; itemPtr: string; op: Obj; opPtr: string },
  n: { item: Obj; itemPtr: string; op: Obj; opPtr: string },
): void {
  const op = collectParams(ctx.oldDoc, oldPath, o.item, o.itemPtr, o.op, o.opPtr);
  const np = collectParams(ctx.newDoc, newPath, n.item, n.itemPtr, n.op, n.opPtr);
  const pre = side.prefix;
  const received = side.polarity === 'out';
  const newByKey = new Map(np.map((p) => [p.key, p]));
  const consumed = new Set<string>();
  for (const a of op) {
    const z = newByKey.get(a.key);
    if (!z) {
      const moved = np.find(
        (x) =>
          !consumed.has(x.key) &&
          x.in !== a.in &&
          x.name.toLowerCase() === a.name.toLowerCase() &&
          !op.some((y) => y.key === x.key),
      );
      if (moved) {
        consumed.add(moved.key);
        const e = enter(ctx, a.raw, a.ptr, moved.raw, moved.ptr);
        emit(
          e.ctx,
          `${pre}-parameter-moved`,
          'ERR',
          `parameter \`${a.name}\` moved from ${a.in} to ${moved.in}`,
          a.ptr,
          moved.ptr,
        );
        continue;
      }
      const e = enter(ctx, a.raw, a.ptr, undefined, undefined);
      const req = a.p.required === true;
      if (received)
        emit(
          e.ctx,
          `${pre}-${req ? 'parameter-removed' : 'optional-parameter-removed'}`,
          req ? 'ERR' : 'WARN',
          `${a.in} parameter \`${a.name}\` removed`,
          a.ptr,
          n.opPtr,
        );
      else
        emit(
          e.ctx,
          `${pre}-parameter-removed`,
          'WARN',
          `${a.in} parameter \`${a.name}\` removed; clients still sending it may be rejected`,
          a.ptr,
          n.opPtr,
        );
      continue;
    }
    consumed.add(z.key);
    const e = enter(ctx, a.raw, a.ptr, z.raw, z.ptr);
    const wasReq = a.p.required === true;
    const isReq = z.p.required === true;
    if (wasReq !== isReq) {
      const tighter = isReq;
      emit(
        e.ctx,
        `${pre}-parameter-became-${isReq ? 'required' : 'optional'}`,
        received === tighter ? 'INFO' : 'ERR',
        `${a.in} parameter \`${z.name}\` became ${isReq ? 'required' : 'optional'}`,
        // The definition, so a shared parameter component is one finding for every operation.
        e.o!.ptr,
        e.n!.ptr,
      );
    }
    const sub: Ctx = {
      ...e.ctx,
      where: `${ctx.where} → ${z.in} parameter ${z.name}`,
      param: true,
      pathParam: z.in === 'path',
    };
    diffSchemaAt(
      sub,
      side,
      a.p.schema,
      join(e.o!.ptr, 'schema'),
      z.p.schema,
      join(e.n!.ptr, 'schema'),
      z.name,
    );
  }
  for (const z of np) {
    if (consumed.has(z.key)) continue;
    const e = enter(ctx, undefined, undefined, z.raw, z.ptr);
    const req = z.p.required === true;
    const breaking = !received && req;
    emit(
      e.ctx,
      `${pre}-${breaking ? 'parameter-added-required' : 'parameter-added'}`,
      breaking ? 'ERR' : 'INFO',
      `${req ? 'required' : 'optional'} ${z.in} parameter \`${z.name}\` added`,
      o.opPtr,
      z.ptr,
    );
  }
}

function diffContent(
  ctx: Ctx,
  side: Side,
  what: string,
  oc: unknown,
  ocPtr: string,
  nc: unknown,
  ncPtr: string,
  ownerOld: string,
  ownerNew: string,
): void {
  const o = obj(oc);
  const n = obj(nc);
  const pre = side.prefix;
  const baseType = (t: string) => t.split(';')[0]!.trim().toLowerCase();
  const specialised = new Set<string>();
  for (const [mt, om] of Object.entries(o)) {
    const nm = n[mt];
    const omPtr = join(ocPtr, mt);
    if (nm === undefined && side.polarity === 'out') {
      // `application/json` → `application/problem+json` (or only its parameters changed): a
      // receiver of the old type still reads the new one.
      const [t, sub] = baseType(mt).split('/');
      const alt = Object.keys(n).find(
        (k) =>
          !(k in o) &&
          !specialised.has(k) &&
          (baseType(k) === baseType(mt) ||
            (baseType(k).startsWith(`${t}/`) && baseType(k).endsWith(`+${sub}`))),
      );
      if (alt !== undefined) {
        specialised.add(alt);
        const e = enter(ctx, om, omPtr, n[alt], join(ncPtr, alt));
        emit(
          e.ctx,
          `${pre}-media-type-specialised`,
          'INFO',
          `${what}: media type ${mt} now sent as ${alt}`,
          omPtr,
          join(ncPtr, alt),
        );
        const os = obj(e.o!.node);
        const ns = obj(e.n!.node);
        if (os.schema !== undefined && ns.schema !== undefined)
          diffSchemaAt(
            { ...e.ctx, where: `${ctx.where} ${alt}` },
            side,
            os.schema,
            join(e.o!.ptr, 'schema'),
            ns.schema,
            join(e.n!.ptr, 'schema'),
            '',
          );
        continue;
      }
    }
    if (nm === undefined) {
      const e = enter(ctx, om, omPtr, undefined, undefined);
      emit(
        e.ctx,
        `${pre}-media-type-removed`,
        // Senders of it are refused; receivers asking for it (Accept) get another format or 406.
        'ERR',
        `${what}: media type ${mt} removed`,
        omPtr,
        isObj(nc) ? ncPtr : ownerNew,
      );
      continue;
    }
    const nmPtr = join(ncPtr, mt);
    const e = enter(ctx, om, omPtr, nm, nmPtr);
    const sub: Ctx = { ...e.ctx, where: `${ctx.where} ${mt}` };
    const os = obj(e.o!.node);
    const ns = obj(e.n!.node);
    if (os.schema !== undefined && ns.schema !== undefined)
      diffSchemaAt(
        sub,
        side,
        os.schema,
        join(e.o!.ptr, 'schema'),
        ns.schema,
        join(e.n!.ptr, 'schema'),
        '',
      );
  }
  for (const [mt, nm] of Object.entries(n)) {
    if (mt in o || specialised.has(mt)) continue;
    const nmPtr = join(ncPtr, mt);
    const e = enter(ctx, undefined, undefined, nm, nmPtr);
    emit(
      e.ctx,
      `${pre}-media-type-added`,
      'INFO',
      `${what}: media type ${mt} added`,
      isObj(oc) ? ocPtr : ownerOld,
      nmPtr,
    );
  }
}

function diffRequestBody(ctx: Ctx, side: Side, o: Obj, oPtr: string, n: Obj, nPtr: string): void {
  const ob = o.requestBody;
  const nb = n.requestBody;
  if (ob === undefined && nb === undefined) return;
  const e = enter(
    ctx,
    ob,
    ob !== undefined ? join(oPtr, 'requestBody') : undefined,
    nb,
    nb !== undefined ? join(nPtr, 'requestBody') : undefined,
  );
  const orb = e.o ? obj(e.o.node) : undefined;
  const nrb = e.n ? obj(e.n.node) : undefined;
  const oPtrB = e.o?.ptr ?? oPtr;
  const nPtrB = e.n?.ptr ?? nPtr;
  const pre = side.prefix;
  const wasReq = orb?.required === true;
  const isReq = nrb?.required === true;
  const what = side.prefix === 'webhook' ? 'payload' : 'request body';
  if (orb && !nrb) {
    emit(
      e.ctx,
      `${pre}-body-removed`,
      // A receiver loses the payload; a sender's data is refused or silently dropped.
      'ERR',
      `${what} removed`,
      oPtrB,
      nPtr,
    );
    return;
  }
  if (!orb && nrb && !isReq) {
    emit(e.ctx, `${pre}-body-added`, 'INFO', `optional ${what} added`, oPtr, nPtrB);
    return;
  }
  if (wasReq !== isReq) {
    const tighter = isReq;
    emit(
      e.ctx,
      `${pre}-body-became-${isReq ? 'required' : 'optional'}`,
      (side.polarity === 'in') === tighter ? 'ERR' : 'INFO',
      `${what} became ${isReq ? 'required' : 'optional'}`,
      orb ? oPtrB : oPtr,
      nPtrB,
    );
  }
  if (orb && nrb)
    diffContent(
      { ...e.ctx, where: `${ctx.where} → ${what}` },
      side,
      what,
      orb.content,
      join(oPtrB, 'content'),
      nrb.content,
      join(nPtrB, 'content'),
      oPtrB,
      nPtrB,
    );
}

function diffHeaders(ctx: Ctx, side: Side, o: Obj, oPtr: string, n: Obj, nPtr: string): void {
  const oh = obj(o.headers);
  const nh = obj(n.headers);
  const lower = (h: Obj) => new Map(Object.keys(h).map((k) => [k.toLowerCase(), k]));
  const ol = lower(oh);
  const nl = lower(nh);
  const pre = side.prefix;
  for (const [lk, ok] of ol) {
    const ohPtr = join(oPtr, 'headers', ok);
    const nk = nl.get(lk);
    if (nk === undefined) {
      const e = enter(ctx, oh[ok], ohPtr, undefined, undefined);
      const req = obj(e.o!.node).required === true;
      emit(
        e.ctx,
        `${pre}-${req ? 'header-removed' : 'optional-header-removed'}`,
        req ? 'ERR' : 'WARN',
        `header ${ok} removed`,
        e.o!.ptr,
        nPtr,
      );
      continue;
    }
    const nhPtr = join(nPtr, 'headers', nk);
    const e = enter(ctx, oh[ok], ohPtr, nh[nk], nhPtr);
    const wasReq = obj(e.o!.node).required === true;
    const isReq = obj(e.n!.node).required === true;
    if (wasReq !== isReq)
      emit(
        e.ctx,
        `${pre}-header-became-${isReq ? 'required' : 'optional'}`,
        isReq ? 'INFO' : 'ERR',
        `header ${nk} became ${isReq ? 'required' : 'optional'}`,
        e.o!.ptr,
        e.n!.ptr,
      );
    const sub: Ctx = { ...e.ctx, where: `${ctx.where} header ${nk}` };
    diffSchemaAt(
      sub,
      side,
      obj(e.o!.node).schema,
      join(e.o!.ptr, 'schema'),
      obj(e.n!.node).schema,
      join(e.n!.ptr, 'schema'),
      nk,
    );
  }
  for (const [lk, nk] of nl) {
    if (ol.has(lk)) continue;
    const nhPtr = join(nPtr, 'headers', nk);
    const e = enter(ctx, undefined, undefined, nh[nk], nhPtr);
    emit(e.ctx, `${pre}-header-added`, 'INFO', `header ${nk} added`, oPtr, e.n!.ptr);
  }
}

function diffResponses(ctx: Ctx, side: Side, o: Obj, oPtr: string, n: Obj, nPtr: string): void {
  const or = obj(o.responses);
  const nr = obj(n.responses);
  const orPtr = join(oPtr, 'responses');
  const nrPtr = join(nPtr, 'responses');
  const pre = side.prefix;
  for (const [code, oresp] of Object.entries(or)) {
    const nresp = nr[code];
    if (nresp === undefined) {
      const e = enter(ctx, oresp, join(orPtr, code), undefined, undefined);
      // A client that checks for the success status it was promised (201) now sees another
      // (200) as unexpected; a removed error status is one less case to handle.
      const success = side.polarity === 'out' && /^2/.test(code);
      emit(
        e.ctx,
        success ? `${pre}-success-status-removed` : `${pre}-status-removed`,
        side.polarity === 'in' || success ? 'ERR' : 'INFO',
        `status ${code} removed`,
        join(orPtr, code),
        isObj(n.responses) ? nrPtr : nPtr,
      );
      continue;
    }
    const e = enter(ctx, oresp, join(orPtr, code), nresp, join(nrPtr, code));
    const sub: Ctx = { ...e.ctx, where: `${ctx.where} → ${code}` };
    const ro = obj(e.o!.node);
    const rn = obj(e.n!.node);
    if (side.polarity === 'out') diffHeaders(sub, side, ro, e.o!.ptr, rn, e.n!.ptr);
    diffContent(
      sub,
      side,
      `status ${code}`,
      ro.content,
      join(e.o!.ptr, 'content'),
      rn.content,
      join(e.n!.ptr, 'content'),
      e.o!.ptr,
      e.n!.ptr,
    );
  }
  for (const [code, nresp] of Object.entries(nr)) {
    if (code in or) continue;
    const e = enter(ctx, undefined, undefined, nresp, join(nrPtr, code));
    // A new status is something a client may now receive: widening for responses.
    emit(
      e.ctx,
      `${pre}-status-added`,
      side.polarity === 'out' ? 'WARN' : 'INFO',
      `status ${code} added`,
      isObj(o.responses) ? orPtr : oPtr,
      join(nrPtr, code),
    );
  }
}

type Alternative = Map<string, Set<string>>;

function requirements(v: unknown): Alternative[] {
  if (!Array.isArray(v)) return [];
  return v.map(
    (alt) =>
      new Map(
        Object.entries(obj(alt)).map(([k, s]) => [
          k,
          new Set(Array.isArray(s) ? s.map(String) : []),
        ]),
      ),
  );
}

/** A client able to meet `have` also meets `need`. */
function satisfies(have: Alternative, need: Alternative): boolean {
  for (const [scheme, scopes] of need) {
    const h = have.get(scheme);
    if (!h) return false;
    for (const s of scopes) if (!h.has(s)) return false;
  }
  return true;
}

const SCOPE_RANK: Record<string, number> = { read: 0, write: 1 };

function diffSecurity(ctx: Ctx, o: Obj, oPtr: string, n: Obj, nPtr: string): void {
  const oldRoot = obj(ctx.oldDoc).security;
  const newRoot = obj(ctx.newDoc).security;
  const oSec = o.security ?? oldRoot;
  const nSec = n.security ?? newRoot;
  const oSecPtr = o.security !== undefined ? join(oPtr, 'security') : '/security';
  const nSecPtr = n.security !== undefined ? join(nPtr, 'security') : '/security';
  const oa = requirements(oSec);
  const na = requirements(nSec);
  const anon = (alts: Alternative[]) => alts.length === 0 || alts.some((a) => a.size === 0);
  if (anon(oa) && !anon(na)) {
    emit(ctx, 'security-added', 'ERR', 'authentication now required', oSecPtr, nSecPtr);
  } else if (!anon(oa) && anon(na)) {
    emit(ctx, 'security-removed', 'INFO', 'authentication no longer required', oSecPtr, nSecPtr);
  } else if (!anon(oa)) {
    // Breaking when some credential that used to work no longer satisfies any alternative.
    const broken = oa.some((have) => !na.some((need) => satisfies(have, need)));
    const loosened = !broken && na.some((have) => !oa.some((need) => satisfies(have, need)));
    const show = (alts: Alternative[]) =>
      alts
        .map((a) => [...a].map(([k, s]) => (s.size ? `${k}[${[...s].join(',')}]` : k)).join('+'))
        .join(' or ');
    if (broken)
      emit(
        ctx,
        'security-requirement-tightened',
        'ERR',
        `security requirement changed from ${show(oa)} to ${show(na)}`,
        oSecPtr,
        nSecPtr,
      );
    else if (loosened)
      emit(
        ctx,
        'security-requirement-loosened',
        'INFO',
        `security requirement changed from ${show(oa)} to ${show(na)}`,
        oSecPtr,
        nSecPtr,
      );
  }
  const os = typeof o['x-scope'] === 'string' ? (o['x-scope'] as string) : undefined;
  const ns = typeof n['x-scope'] === 'string' ? (n['x-scope'] as string) : undefined;
  if (os === ns) return;
  const or = SCOPE_RANK[os ?? 'read'];
  const nr = SCOPE_RANK[ns ?? 'read'];
  const oxPtr = os !== undefined ? join(oPtr, 'x-scope') : oPtr;
  const nxPtr = ns !== undefined ? join(nPtr, 'x-scope') : nPtr;
  const msg = `key scope ${os ?? 'unset'} → ${ns ?? 'unset'}`;
  if (or === undefined || nr === undefined) emit(ctx, 'x-scope-changed', 'WARN', msg, oxPtr, nxPtr);
  else if (nr > or) emit(ctx, 'x-scope-raised', 'ERR', msg, oxPtr, nxPtr);
  else if (nr < or) emit(ctx, 'x-scope-lowered', 'INFO', msg, oxPtr, nxPtr);
}

/**
 * Where a removed operation stood in its announced life: `deprecated: true` with an `x-sunset`
 * date (YYYY-MM-DD or RFC 3339) that has `passed` (removal was promised: INFO) or is still
 * `ahead` (removed early: ERR). A deprecation without a date promises no end, so removal stays ERR.
 */
export function sunsetOf(op: Obj, now = Date.now()): 'passed' | 'ahead' | undefined {
  if (op.deprecated !== true) return undefined;
  const raw = op['x-sunset'];
  const t = typeof raw === 'string' ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(t)) return undefined;
  return t <= now ? 'passed' : 'ahead';
}

interface OpSite {
  path: string;
  item: Obj;
  itemPtr: string;
  op: Obj;
  opPtr: string;
}

function diffOperation(ctx: Ctx, webhook: boolean, o: OpSite, n: OpSite): void {
  const sideIn = webhook ? WEBHOOK : REQUEST;
  const sideOut = webhook ? WEBHOOK_RESPONSE : RESPONSE;
  if (!webhook) diffSecurity(ctx, o.op, o.opPtr, n.op, n.opPtr);
  diffParams(ctx, sideIn, o.path, n.path, o, n);
  diffRequestBody(ctx, sideIn, o.op, o.opPtr, n.op, n.opPtr);
  diffResponses(ctx, sideOut, o.op, o.opPtr, n.op, n.opPtr);
}

function diffItems(
  root: Ctx,
  section: 'paths' | 'webhooks',
  normalise: (k: string) => string,
): void {
  const webhook = section === 'webhooks';
  const oItems = obj(obj(root.oldDoc)[section]);
  const nItems = obj(obj(root.newDoc)[section]);
  const nByNorm = new Map(Object.keys(nItems).map((k) => [normalise(k), k]));
  const oNorm = new Set(Object.keys(oItems).map(normalise));
  const label = (k: string, m?: string) =>
    webhook
      ? `webhook ${k}${m ? ` (${m.toUpperCase()})` : ''}`
      : `${m ? `${m.toUpperCase()} ` : ''}${k}`;
  const noun = webhook ? 'webhook' : 'path';
  for (const [ok, oraw] of Object.entries(oItems)) {
    const nk = nByNorm.get(normalise(ok));
    const oPtr = join('', section, ok);
    const base: Ctx = { ...root, where: label(nk ?? ok) };
    if (nk === undefined) {
      const e = enter(base, oraw, oPtr, undefined, undefined);
      // A path with no operations was never callable: removing it breaks nobody.
      const callable = METHODS.some((m) => obj(e.o!.node)[m] !== undefined);
      emit(
        e.ctx,
        callable ? `${noun}-removed` : `${noun}-without-operations-removed`,
        callable ? 'ERR' : 'INFO',
        `${label(ok)} removed`,
        oPtr,
        join('', section),
      );
      continue;
    }
    const nPtr = join('', section, nk);
    const e = enter(base, oraw, oPtr, nItems[nk], nPtr);
    const oi = obj(e.o!.node);
    const ni = obj(e.n!.node);
    for (const m of METHODS) {
      const oop = oi[m];
      const nop = ni[m];
      if (oop === undefined && nop === undefined) continue;
      const opCtx: Ctx = { ...e.ctx, where: label(nk, m), visited: new Set() };
      const oOpPtr = join(e.o!.ptr, m);
      const nOpPtr = join(e.n!.ptr, m);
      if (nop === undefined) {
        const r = enter(opCtx, oop, oOpPtr, undefined, undefined);
        const sunset = sunsetOf(obj(r.o!.node));
        const id = webhook ? 'webhook-operation-removed' : 'operation-removed';
        emit(
          r.ctx,
          sunset === 'passed'
            ? `${id}-after-sunset`
            : sunset === 'ahead'
              ? `${id}-before-sunset`
              : id,
          sunset === 'passed' ? 'INFO' : 'ERR',
          `${label(ok, m)} removed${sunset === 'passed' ? ' after its announced sunset' : sunset === 'ahead' ? ' before its announced sunset' : ''}`,
          oOpPtr,
          e.n!.ptr,
        );
        continue;
      }
      if (oop === undefined) {
        const r = enter(opCtx, undefined, undefined, nop, nOpPtr);
        emit(
          r.ctx,
          webhook ? 'webhook-operation-added' : 'operation-added',
          'INFO',
          `${label(nk, m)} added`,
          e.o!.ptr,
          nOpPtr,
        );
        continue;
      }
      const r = enter(opCtx, oop, oOpPtr, nop, nOpPtr);
      const wasDep = obj(r.o!.node).deprecated === true;
      const isDep = obj(r.n!.node).deprecated === true;
      if (wasDep !== isDep) {
        const sunset = obj(r.n!.node)['x-sunset'];
        emit(
          r.ctx,
          `${webhook ? 'webhook-' : ''}operation-${isDep ? 'deprecated' : 'undeprecated'}`,
          'INFO',
          `${label(nk, m)} ${isDep ? `deprecated${typeof sunset === 'string' ? `, sunset ${sunset}` : ''}` : 'no longer deprecated'}`,
          wasDep ? join(r.o!.ptr, 'deprecated') : r.o!.ptr,
          isDep ? join(r.n!.ptr, 'deprecated') : r.n!.ptr,
        );
      }
      diffOperation(
        r.ctx,
        webhook,
        { path: ok, item: oi, itemPtr: e.o!.ptr, op: obj(r.o!.node), opPtr: r.o!.ptr },
        { path: nk, item: ni, itemPtr: e.n!.ptr, op: obj(r.n!.node), opPtr: r.n!.ptr },
      );
    }
  }
  for (const [nk, nraw] of Object.entries(nItems)) {
    if (oNorm.has(normalise(nk))) continue;
    const nPtr = join('', section, nk);
    const e = enter({ ...root, where: label(nk) }, undefined, undefined, nraw, nPtr);
    emit(e.ctx, `${noun}-added`, 'INFO', `${label(nk)} added`, join('', section), nPtr);
  }
}

/**
 * Direction-aware breaking-change report between two parsed OpenAPI 3.1 documents. Findings are
 * merged when one change (e.g. in a shared component) is reached from several operations, and
 * sorted most severe first.
 */
export function diffSpecs(
  oldDoc: SpecDoc,
  newDoc: SpecDoc,
  options: { levels?: Readonly<Record<string, Level>> } = {},
): Finding[] {
  const sink = new Sink();
  const root: Ctx = {
    oldDoc,
    newDoc,
    sink,
    where: '',
    visited: new Set(),
    memo: new Map(),
    trials: new Map(),
    ...(options.levels ? { levels: options.levels } : {}),
  };
  diffItems(root, 'paths', normalisePath);
  diffItems(root, 'webhooks', (k) => k);
  return [...sink.byKey.values()].sort(
    (a, b) =>
      LEVEL_RANK[b.level] - LEVEL_RANK[a.level] ||
      a.rule.localeCompare(b.rule) ||
      (a.old ?? a.new ?? '').localeCompare(b.old ?? b.new ?? ''),
  );
}
