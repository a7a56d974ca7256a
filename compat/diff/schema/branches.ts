/**
 * `oneOf`/`anyOf` branches on both sides: paired when identical or referring to the same
 * component, otherwise judged by whether values still land in some branch.
 */
import { join } from '../pointer.ts';
import { isObj } from '../walk-context.ts';
import { fingerprint } from './canonical.ts';
import { compare, kebab, report, type Step, trialErrs } from './step.ts';

interface Branch {
  b: unknown;
  i: number;
  f: string;
}

export function diffBranches(st: Step, kw: 'oneOf' | 'anyOf'): void {
  const { ctx, ov, nv } = st;
  const ob = Array.isArray(ov.s[kw]) ? (ov.s[kw] as unknown[]) : undefined;
  const nb = Array.isArray(nv.s[kw]) ? (nv.s[kw] as unknown[]) : undefined;
  if (!ob && !nb) return;
  if (!ob || !nb) {
    conjunct(st, kw, ob, nb);
    return;
  }
  const oLeft: Branch[] = ob.map((b, i) => ({ b, i, f: fingerprint(ctx.oldDoc, b) }));
  const nLeft: Branch[] = nb.map((b, i) => ({ b, i, f: fingerprint(ctx.newDoc, b) }));
  // Identical branches pair up wherever they moved to: reordering is not a change.
  for (let i = oLeft.length - 1; i >= 0; i--) {
    const j = nLeft.findIndex((x) => x.f === oLeft[i]!.f);
    if (j >= 0) {
      oLeft.splice(i, 1);
      nLeft.splice(j, 1);
    }
  }
  // Same `$ref` target on both sides, or a one-for-one swap: an edited branch, compared deeply.
  const refOf = (b: unknown) => (isObj(b) && typeof b.$ref === 'string' ? b.$ref : undefined);
  for (let i = oLeft.length - 1; i >= 0; i--) {
    const r = refOf(oLeft[i]!.b);
    const j = r ? nLeft.findIndex((x) => refOf(x.b) === r) : -1;
    if (j >= 0) {
      const a = oLeft.splice(i, 1)[0]!;
      const z = nLeft.splice(j, 1)[0]!;
      compare(st, [a.b, join(ov.ptr, kw, a.i), z.b, join(nv.ptr, kw, z.i)]);
    }
  }
  unmatched(st, kw, ob, nb, oLeft, nLeft);
}

/**
 * A composition added to (or removed from) a schema that keeps its own constraints: a
 * conjunct. Adding one can only narrow; what matters is whether old values still pass.
 */
function conjunct(st: Step, kw: 'oneOf' | 'anyOf', ob?: unknown[], nb?: unknown[]): void {
  const { side, ov, nv } = st;
  const adding = !ob;
  if (adding !== (side.polarity === 'in')) return;
  const how = adding ? 'added' : 'removed';
  const fit = (adding ? nb : ob)!.filter(
    (b, i) =>
      (adding
        ? trialErrs(st, side, [ov.s, ov.ptr, b, join(nv.ptr, kw, i)])
        : trialErrs(st, side, [b, join(ov.ptr, kw, i), nv.s, nv.ptr])) === 0,
  ).length;
  if (fit !== 0 && !(kw === 'oneOf' && fit >= 2)) return;
  report(
    st,
    fit === 0 ? `${kebab(kw)}-${how}` : 'one-of-ambiguous',
    fit === 0
      ? `\`${kw}\` ${how}; values valid before match none of its branches`
      : `values valid before now match ${fit} \`oneOf\` branches and so fail \`oneOf\``,
    adding ? [ov.ptr, join(nv.ptr, kw)] : [join(ov.ptr, kw), nv.ptr],
  );
}

/**
 * Branches with no identical partner: a sender's old branch must still be accepted by some new
 * branch; a receiver's new branch must fit some old one. Structure, not names, decides.
 */
function unmatched(
  st: Step,
  kw: 'oneOf' | 'anyOf',
  ob: unknown[],
  nb: unknown[],
  oLeft: Branch[],
  nLeft: Branch[],
): void {
  const { side, ov, nv } = st;
  const oPtr = (i: number) => join(ov.ptr, kw, i);
  const nPtr = (i: number) => join(nv.ptr, kw, i);
  const sends = side.polarity === 'in';
  const oBad = sends
    ? oLeft.filter(
        (a) => !nb.some((z, j) => trialErrs(st, side, [a.b, oPtr(a.i), z, nPtr(j)]) === 0),
      )
    : [];
  const nBad = sends
    ? []
    : nLeft.filter(
        (z) => !ob.some((a, j) => trialErrs(st, side, [a, oPtr(j), z.b, nPtr(z.i)]) === 0),
      );
  if (oLeft.length === nLeft.length) {
    // One-for-one edits: compared in place so the report names what changed.
    oLeft.forEach((a, i) => {
      const z = nLeft[i]!;
      if (oBad.includes(a) || nBad.includes(z)) compare(st, [a.b, oPtr(a.i), z.b, nPtr(z.i)]);
    });
    return;
  }
  for (const a of oLeft)
    report(
      st,
      sends && !oBad.includes(a) ? 'branch-removed-covered' : 'branch-removed',
      `${kw} branch #${a.i} removed`,
      [oPtr(a.i), join(nv.ptr, kw)],
    );
  for (const z of nLeft)
    report(
      st,
      !sends && !nBad.includes(z) ? 'branch-added-covered' : 'branch-added',
      `${kw} branch #${z.i} added`,
      [join(ov.ptr, kw), nPtr(z.i)],
    );
}
