/**
 * A `content` map (request body, response, webhook payload) across versions: media types paired,
 * specialised, removed or added, and the schemas of each pair compared.
 */
import { join } from './pointer.ts';
import { diffSchemaAt } from './schema-diff.ts';
import { type Ctx, emit, enter, isObj, obj, type Resolved, type Side } from './walk-context.ts';

const baseType = (t: string) => t.split(';')[0]!.trim().toLowerCase();

/**
 * A media type only in the new version that a receiver of `mt` still reads: `application/json` →
 * `application/problem+json`, or only its parameters changed.
 */
function specialisation(mt: string, o: object, n: object, taken: Set<string>): string | undefined {
  const [t, sub] = baseType(mt).split('/');
  return Object.keys(n).find(
    (k) =>
      !(k in o) &&
      !taken.has(k) &&
      (baseType(k) === baseType(mt) ||
        (baseType(k).startsWith(`${t}/`) && baseType(k).endsWith(`+${sub}`))),
  );
}

/** The `content` of two resolved owners (request bodies, responses), `what` in messages. */
export function diffContent(ctx: Ctx, side: Side, what: string, ro: Resolved, rn: Resolved): void {
  const [oc, ocPtr] = [obj(ro.node).content, join(ro.ptr, 'content')];
  const [nc, ncPtr] = [obj(rn.node).content, join(rn.ptr, 'content')];
  const o = obj(oc);
  const n = obj(nc);
  const pre = side.prefix;
  const specialised = new Set<string>();
  for (const [mt, om] of Object.entries(o)) {
    const omPtr = join(ocPtr, mt);
    if (n[mt] !== undefined) {
      diffMediaType(ctx, side, mt, om, omPtr, n[mt], join(ncPtr, mt));
      continue;
    }
    const alt = side.polarity === 'out' ? specialisation(mt, o, n, specialised) : undefined;
    if (alt !== undefined) {
      specialised.add(alt);
      const msg = `${what}: media type ${mt} now sent as ${alt}`;
      emit(ctx, `${pre}-media-type-specialised`, msg, omPtr, join(ncPtr, alt));
      diffMediaType(ctx, side, alt, om, omPtr, n[alt], join(ncPtr, alt));
      continue;
    }
    emit(
      ctx,
      // Senders of it are refused; receivers asking for it (Accept) get another format or 406.
      `${pre}-media-type-removed`,
      `${what}: media type ${mt} removed`,
      omPtr,
      isObj(nc) ? ncPtr : rn.ptr,
    );
  }
  for (const mt of Object.keys(n)) {
    if (mt in o || specialised.has(mt)) continue;
    const msg = `${what}: media type ${mt} added`;
    emit(ctx, `${pre}-media-type-added`, msg, isObj(oc) ? ocPtr : ro.ptr, join(ncPtr, mt));
  }
}

/** The schemas of one media type object present in both versions (`mt` as it is now). */
function diffMediaType(
  ctx: Ctx,
  side: Side,
  mt: string,
  om: unknown,
  omPtr: string,
  nm: unknown,
  nmPtr: string,
): void {
  const e = enter(ctx, om, omPtr, nm, nmPtr);
  const os = obj(e.o!.node);
  const ns = obj(e.n!.node);
  if (os.schema !== undefined && ns.schema !== undefined)
    diffSchemaAt({ ...ctx, where: `${ctx.where} ${mt}` }, side, e.o!, e.n!, '');
}
