/**
 * Constraints on the value itself: bounds (length, range, item and property counts),
 * `uniqueItems`, `pattern`, the encoding of a string's content, and the default.
 */
import { kebab, rate, report, type Step } from './step.ts';
import { at } from './view.ts';

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

const tightened = (tighter: boolean) => (tighter ? 'tightened' : 'loosened');

export function diffBounds(st: Step): void {
  const { side, ov, nv } = st;
  for (const b of BOUNDS) {
    const a = ov.s[b.key];
    const z = nv.s[b.key];
    if (typeof a !== 'number' && typeof z !== 'number') continue;
    if (a === z) continue;
    const none = b.max ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    const av = typeof a === 'number' ? a : none;
    const zv = typeof z === 'number' ? z : none;
    const tighter = b.max ? zv < av : zv > av;
    report(
      st,
      `${b.group}-${tightened(tighter)}`,
      rate(side, tighter),
      `${b.key} ${a ?? 'unset'} → ${z ?? 'unset'}`,
      at(ov, b.key, typeof a === 'number'),
      at(nv, b.key, typeof z === 'number'),
    );
  }
  const [a, z] = [ov.s.uniqueItems, nv.s.uniqueItems];
  if (a !== z && (a || z)) {
    const tighter = z === true;
    report(
      st,
      `items-${tightened(tighter)}`,
      rate(side, tighter),
      `uniqueItems ${a ?? 'unset'} → ${z ?? 'unset'}`,
      at(ov, 'uniqueItems'),
      at(nv, 'uniqueItems'),
    );
  }
}

export function diffPattern(st: Step): void {
  const { ov, nv } = st;
  const opat = typeof ov.s.pattern === 'string' && ov.s.pattern !== '' ? ov.s.pattern : undefined;
  const npat = typeof nv.s.pattern === 'string' && nv.s.pattern !== '' ? nv.s.pattern : undefined;
  if (opat === npat) return;
  // A pattern where there was none narrows; a changed one may go either way (whether one
  // regex accepts more than another is undecidable in general): flag it for a human.
  const kind = opat === undefined ? 'added' : npat === undefined ? 'removed' : 'changed';
  report(
    st,
    `pattern-${kind}`,
    kind === 'changed' ? 'WARN' : rate(st.side, kind === 'added'),
    `pattern ${JSON.stringify(opat ?? null)} → ${JSON.stringify(npat ?? null)}`,
    at(ov, 'pattern'),
    at(nv, 'pattern'),
  );
}

export function diffContentEncoding(st: Step): void {
  const { ov, nv } = st;
  // The encoding of a string's content is part of its wire format, whichever way it travels.
  for (const kw of ['contentMediaType', 'contentEncoding'] as const) {
    const a = ov.s[kw];
    const z = nv.s[kw];
    if (a === z || (a === undefined && z === undefined)) continue;
    const changed = a !== undefined && z !== undefined;
    report(
      st,
      `${kebab(kw)}-${changed ? 'changed' : a === undefined ? 'added' : 'removed'}`,
      changed ? 'ERR' : 'WARN',
      `${kw} ${JSON.stringify(a ?? null)} → ${JSON.stringify(z ?? null)}`,
      at(ov, kw, a !== undefined),
      at(nv, kw, z !== undefined),
    );
  }
}

export function diffDefault(st: Step): void {
  const { ctx, ov, nv } = st;
  // A default is what the server assumes when a sender leaves the value out.
  if (st.side.polarity !== 'in' || ctx.pathParam) return;
  const a = ov.s.default;
  const z = nv.s.default;
  if (a !== undefined && z !== undefined && JSON.stringify(a) !== JSON.stringify(z))
    report(
      st,
      'default-changed',
      'ERR',
      `default ${JSON.stringify(a)} → ${JSON.stringify(z)}; senders that leave it out get different behaviour`,
      at(ov, 'default'),
      at(nv, 'default'),
    );
}
