/**
 * Who may call an operation, across versions: its security requirement (own or inherited from
 * the document) and the API-key scope it needs (`x-scope`).
 */
import { join } from './pointer.ts';
import { type Ctx, emit, type Obj, obj } from './walk-context.ts';

/** One way to authenticate: scheme → scopes it needs. */
type Alternative = Map<string, Set<string>>;

function requirements(v: unknown): Alternative[] {
  if (!Array.isArray(v)) return [];
  const scopes = (s: unknown) => new Set(Array.isArray(s) ? s.map(String) : []);
  return v.map((alt) => new Map(Object.entries(obj(alt)).map(([k, s]) => [k, scopes(s)])));
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

const show = (alts: Alternative[]) =>
  alts
    .map((a) => [...a].map(([k, s]) => (s.size ? `${k}[${[...s].join(',')}]` : k)).join('+'))
    .join(' or ');

export function diffSecurity(ctx: Ctx, o: Obj, oPtr: string, n: Obj, nPtr: string): void {
  const oSecPtr = o.security !== undefined ? join(oPtr, 'security') : '/security';
  const nSecPtr = n.security !== undefined ? join(nPtr, 'security') : '/security';
  const oa = requirements(o.security ?? obj(ctx.oldDoc).security);
  const na = requirements(n.security ?? obj(ctx.newDoc).security);
  const anon = (alts: Alternative[]) => alts.length === 0 || alts.some((a) => a.size === 0);
  if (anon(oa) && !anon(na)) {
    emit(ctx, 'security-added', 'authentication now required', oSecPtr, nSecPtr);
  } else if (!anon(oa) && anon(na)) {
    emit(ctx, 'security-removed', 'authentication no longer required', oSecPtr, nSecPtr);
  } else if (!anon(oa)) {
    // Breaking when some credential that used to work no longer satisfies any alternative.
    const broken = oa.some((have) => !na.some((need) => satisfies(have, need)));
    const loosened = !broken && na.some((have) => !oa.some((need) => satisfies(have, need)));
    const msg = `security requirement changed from ${show(oa)} to ${show(na)}`;
    if (broken) emit(ctx, 'security-requirement-tightened', msg, oSecPtr, nSecPtr);
    else if (loosened) emit(ctx, 'security-requirement-loosened', msg, oSecPtr, nSecPtr);
  }
  diffScope(ctx, o, oPtr, n, nPtr);
}

const SCOPE_RANK: Record<string, number> = { read: 0, write: 1 };

function diffScope(ctx: Ctx, o: Obj, oPtr: string, n: Obj, nPtr: string): void {
  const os = typeof o['x-scope'] === 'string' ? (o['x-scope'] as string) : undefined;
  const ns = typeof n['x-scope'] === 'string' ? (n['x-scope'] as string) : undefined;
  if (os === ns) return;
  const or = SCOPE_RANK[os ?? 'read'];
  const nr = SCOPE_RANK[ns ?? 'read'];
  const oxPtr = os !== undefined ? join(oPtr, 'x-scope') : oPtr;
  const nxPtr = ns !== undefined ? join(nPtr, 'x-scope') : nPtr;
  const msg = `key scope ${os ?? 'unset'} → ${ns ?? 'unset'}`;
  if (or === undefined || nr === undefined) emit(ctx, 'x-scope-changed', msg, oxPtr, nxPtr);
  else if (nr > or) emit(ctx, 'x-scope-raised', msg, oxPtr, nxPtr);
  else if (nr < or) emit(ctx, 'x-scope-lowered', msg, oxPtr, nxPtr);
}
