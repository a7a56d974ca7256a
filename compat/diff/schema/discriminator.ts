/**
 * The discriminator is how both sides tell branches apart: a renamed property or mapping value
 * means one side sends a value the other cannot place. Adding one is only a hint.
 */
import { join } from '../pointer.ts';
import { isObj, type Obj } from '../walk-context.ts';
import { fingerprint } from './canonical.ts';
import { type Ptrs, report, type Step } from './step.ts';

export function diffDiscriminator(st: Step): void {
  const { ctx, ov, nv } = st;
  const od = isObj(ov.s.discriminator) ? ov.s.discriminator : undefined;
  const nd = isObj(nv.s.discriminator) ? nv.s.discriminator : undefined;
  if (!od || !nd) return;
  const oPtr = join(ov.ptr, 'discriminator');
  const nPtr = join(nv.ptr, 'discriminator');
  if (od.propertyName !== nd.propertyName)
    report(
      st,
      'discriminator-property-changed',
      `discriminator property ${JSON.stringify(od.propertyName)} → ${JSON.stringify(nd.propertyName)}`,
      [join(oPtr, 'propertyName'), join(nPtr, 'propertyName')],
    );
  const om = isObj(od.mapping) ? od.mapping : {};
  const nm = isObj(nd.mapping) ? nd.mapping : {};
  const target = (doc: unknown, ref: unknown) =>
    typeof ref === 'string' ? fingerprint(doc, { $ref: ref }) : '';
  const moved = Object.keys(om).filter(
    // Same reference: any change inside that schema is reported where it is compared.
    (k) => k in nm && om[k] !== nm[k] && target(ctx.oldDoc, om[k]) !== target(ctx.newDoc, nm[k]),
  );
  const mPtr = (ptr: string, d: Obj) => ('mapping' in d ? join(ptr, 'mapping') : ptr);
  const ptrs: Ptrs = [mPtr(oPtr, od), mPtr(nPtr, nd)];
  const changes = [
    ['value-removed', 'removed', Object.keys(om).filter((k) => !(k in nm))],
    ['value-added', 'added', Object.keys(nm).filter((k) => !(k in om))],
    ['mapping-changed', 'now map to a different schema', moved],
  ] as const;
  for (const [rule, how, keys] of changes)
    if (keys.length > 0)
      report(
        st,
        `discriminator-${rule}`,
        `discriminator value(s) ${how}: ${keys.join(', ')}`,
        ptrs,
      );
}
