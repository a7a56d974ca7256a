/**
 * Constraints on the value itself: bounds (length, range, item and property counts),
 * `uniqueItems`, `pattern`, the encoding of a string's content, and the default.
 */
import { ats, kebab, type Ptrs, report, type Step } from './step.ts';

/** Bound keywords grouped by the rule they raise; `max` means a lower value is tighter. */
const BOUNDS: { key: string; group: string; max: boolean }[] = [
  { key: 'maxLength', group: 'length', max: true },
  { key: 'minLength', group: 'length', max: false },
  { key: 'maximum', group: 'range', max: true },
  { key: 'exclusiveMaximum', group: 'range', max: true },
  { key: 'minimum', group: 'range', max: false },
  { key: 'exclusiveMinimum', group: 'range', max: false },
  { key: 'maxItems', group: 'items', max: true },
  { key: 'minItems', group: 'items', max: false },
  { key: 'maxContains', group: 'contains', max: true },
  { key: 'minContains', group: 'contains', max: false },
  { key: 'maxProperties', group: 'property-count', max: true },
  { key: 'minProperties', group: 'property-count', max: false },
];

export function diffBounds(st: Step): void {
  const { ov, nv } = st;
  const changes: [group: string, key: string, tighter: boolean, a: unknown, z: unknown, Ptrs][] =
    [];
  for (const b of BOUNDS) {
    const a = ov.s[b.key];
    const z = nv.s[b.key];
    if (typeof a !== 'number' && typeof z !== 'number') continue;
    if (a === z) continue;
    const none = b.max ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    const av = typeof a === 'number' ? a : none;
    const zv = typeof z === 'number' ? z : none;
    const ptrs = ats(st, b.key, typeof a === 'number', typeof z === 'number');
    changes.push([b.group, b.key, b.max ? zv < av : zv > av, a, z, ptrs]);
  }
  const [a, z] = [ov.s.uniqueItems, nv.s.uniqueItems];
  if (a !== z && (a || z))
    changes.push(['items', 'uniqueItems', z === true, a, z, ats(st, 'uniqueItems')]);
  for (const [group, key, tighter, a, z, ptrs] of changes) {
    const rule = `${group}-${tighter ? 'tightened' : 'loosened'}`;
    report(st, rule, `${key} ${a ?? 'unset'} → ${z ?? 'unset'}`, ptrs);
  }
}

export function diffPattern(st: Step): void {
  const { ov, nv } = st;
  const opat = typeof ov.s.pattern === 'string' && ov.s.pattern !== '' ? ov.s.pattern : undefined;
  const npat = typeof nv.s.pattern === 'string' && nv.s.pattern !== '' ? nv.s.pattern : undefined;
  if (opat === npat) return;
  // A pattern where there was none narrows; a changed one may go either way (whether one
  // regex accepts more than another is undecidable in general): rules.ts flags it for a human.
  const kind = opat === undefined ? 'added' : npat === undefined ? 'removed' : 'changed';
  const message = `pattern ${JSON.stringify(opat ?? null)} → ${JSON.stringify(npat ?? null)}`;
  report(st, `pattern-${kind}`, message, ats(st, 'pattern'));
}

export function diffContentEncoding(st: Step): void {
  const { ov, nv } = st;
  // The encoding of a string's content is part of its wire format, whichever way it travels.
  for (const kw of ['contentMediaType', 'contentEncoding'] as const) {
    const a = ov.s[kw];
    const z = nv.s[kw];
    if (a === z || (a === undefined && z === undefined)) continue;
    const how =
      a !== undefined && z !== undefined ? 'changed' : a === undefined ? 'added' : 'removed';
    const message = `${kw} ${JSON.stringify(a ?? null)} → ${JSON.stringify(z ?? null)}`;
    const ptrs = ats(st, kw, a !== undefined, z !== undefined);
    report(st, `${kebab(kw)}-${how}`, message, ptrs);
  }
}

export function diffDefault(st: Step): void {
  const { ctx, ov, nv } = st;
  // A default is what the server assumes when a sender leaves the value out.
  if (st.side.polarity !== 'in' || ctx.pathParam) return;
  const [a, z] = [JSON.stringify(ov.s.default), JSON.stringify(nv.s.default)];
  if (a === undefined || z === undefined || a === z) return;
  const message = `default ${a} → ${z}; senders that leave it out get different behaviour`;
  report(st, 'default-changed', message, ats(st, 'default'));
}
