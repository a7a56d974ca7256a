/**
 * One step of the schema walk: the pair being compared, and what every part of the comparison
 * does with it (report a change, compare a nested pair, count what a nested pair would break).
 */
import { failing } from '../../../core/level.ts';
import { type Ctx, emit, type Side, Sink } from '../walk-context.ts';
import { at, type View } from './view.ts';

/** Two schemas to compare, each with its pointer: old, old pointer, new, new pointer. */
export type Pair = [o: unknown, oPtr: string, n: unknown, nPtr: string];

/** The walk's entry point (`diffSchema`), handed to the parts so that they need not import it. */
export type DiffSchema = (ctx: Ctx, side: Side, ...pair: [...Pair, path: string]) => void;

export interface Step {
  ctx: Ctx;
  side: Side;
  ov: View;
  nv: View;
  /** Readable name of the schema, used in messages only. */
  name: string;
  diff: DiffSchema;
}

export function kebab(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** Where a finding points on each side: old, new. */
export type Ptrs = readonly [string, string];

/** Pointers to keyword `kw` on both sides, each where `at` puts it. */
export function ats(st: Step, kw: string, oHas?: boolean, nHas?: boolean): Ptrs {
  return [at(st.ov, kw, oHas), at(st.nv, kw, nHas)];
}

/**
 * Emits `<side>-<rule>` with a message about `name` (the step's schema unless told); its level
 * for this side comes from the rules table.
 */
export function report(
  st: Step,
  rule: string,
  message: string,
  [oldPtr, newPtr]: Ptrs,
  name = st.name,
): void {
  const what = name === '' ? 'the schema' : `\`${name}\``;
  emit(st.ctx, `${st.side.prefix}-${rule}`, `${what}: ${message}`, oldPtr, newPtr);
}

/** Compares a nested pair of schemas, reporting what it finds. */
export function compare(st: Step, pair: Pair, name = st.name): void {
  st.diff(st.ctx, st.side, ...pair, name);
}

/**
 * ERR findings comparing a nested pair would raise, counted on a scratch sink (nothing is
 * reported). A trial starts with a fresh cycle guard, so a self-referential `oneOf`
 * (`A: {oneOf: [$ref A]}`) would start the same trial inside itself for ever: a trial already
 * running is taken to fit (0) — the coinductive reading of a recursive schema, where a cycle
 * adds no constraint of its own; the outer trial still counts everything else it finds.
 */
export function trialErrs(st: Step, side: Side, pair: Pair): number {
  const { ctx } = st;
  const key = `${side.prefix}|${side.polarity}|${ctx.param ? 1 : 0}|${pair[1]}|${pair[3]}`;
  const known = ctx.trials?.get(key);
  if (known !== undefined) return known;
  ctx.running ??= new Set();
  const running = ctx.running;
  if (running.has(key)) return 0;
  running.add(key);
  const sink = new Sink();
  try {
    st.diff({ ...ctx, sink, visited: new Set(), levels: undefined }, side, ...pair, '');
  } finally {
    running.delete(key);
  }
  const errs = failing([...sink.byKey.values()]).length;
  ctx.trials?.set(key, errs);
  return errs;
}
