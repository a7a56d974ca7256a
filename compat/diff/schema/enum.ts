/** Enum changes: `enum`/`const` values added, removed, imposed or lifted, and `x-extensible-enum`. */
import type { Obj } from '../walk-context.ts';
import { ats, type Ptrs, report, type Step } from './step.ts';
import { at, type View } from './view.ts';

function enumValues(s: Obj): unknown[] | undefined {
  if (Array.isArray(s.enum)) return s.enum;
  if ('const' in s) return [s.const];
  return undefined;
}

/** Where the values are: `enum` or `const`, else the schema. */
function ptr(v: View, e: unknown[] | undefined): string {
  return at(v, Array.isArray(v.s.enum) ? 'enum' : 'const', e !== undefined);
}

/** Values (as JSON) of `b` that `a` lacks, each once, in `b`'s order. */
function lacking(a: unknown[], b: unknown[]): string[] {
  const have = new Set(a.map((x) => JSON.stringify(x)));
  return [...new Set(b.map((x) => JSON.stringify(x)))].filter((x) => !have.has(x));
}

export function diffEnum(st: Step): void {
  const { ov, nv } = st;
  const oe = enumValues(ov.s);
  const ne = enumValues(nv.s);
  const ptrs: Ptrs = [ptr(ov, oe), ptr(nv, ne)];
  if (oe && ne) values(st, 'enum', oe, ne, ptrs);
  else if (oe || ne) {
    const how = ne ? 'now limited to' : 'no longer limited to';
    const rule = `enum-${ne ? 'restricted' : 'unrestricted'}`;
    report(st, rule, `${how} ${JSON.stringify(ne ?? oe)}`, ptrs);
  }
  const kw = 'x-extensible-enum';
  const ox = Array.isArray(ov.s[kw]) ? (ov.s[kw] as unknown[]) : [];
  const nx = Array.isArray(nv.s[kw]) ? (nv.s[kw] as unknown[]) : [];
  // Receivers of an extensible enum must expect new values; senders lose removed ones.
  if (ox.length > 0 && nx.length > 0) values(st, kw, ox, nx, ats(st, kw));
}

/** Values added to and removed from keyword `kw`'s list on both sides (rules without `x-`). */
function values(st: Step, kw: string, a: unknown[], z: unknown[], ptrs: Ptrs): void {
  const id = kw.replace(/^x-/, '');
  const added = lacking(a, z);
  const removed = lacking(z, a);
  if (added.length > 0)
    report(st, `${id}-value-added`, `${kw} value(s) added: ${added.join(', ')}`, ptrs);
  if (removed.length > 0) {
    const message = `${kw} value(s) removed: ${removed.join(', ')}`;
    report(st, `${id}-value-removed`, message, ptrs);
  }
}
