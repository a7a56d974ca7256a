/**
 * Which areas a `harness run` runs, and why each other one is not run: `--skip AREA` leaves one
 * out; `--area A,B` runs only those; `--grep` selects contract tests, so without `--area` it
 * runs the contract suite alone — a grep for one check must not cost the 95 s of the load area
 * and the fuzzers (`--area contracts,load,fuzz` runs them too).
 */
export const AREAS = ['contracts', 'load', 'fuzz'] as const;
export type Area = (typeof AREAS)[number];

export interface AreaChoice {
  skip?: readonly Area[];
  /** Only these areas (`--area`); undefined: every area, or the contract suite with `--grep`. */
  areas?: readonly Area[];
  grep?: string;
}

/** The areas not to run, each with the reason the report lists. */
export function areasNotRun(o: AreaChoice): Map<Area, string> {
  const out = new Map<Area, string>();
  for (const a of AREAS) {
    if (o.skip?.includes(a)) out.set(a, `skipped (--skip ${a})`);
    else if (o.areas && !o.areas.includes(a))
      out.set(a, `not run: --area ${o.areas.join(',')} does not select it`);
    else if (!o.areas && o.grep !== undefined && a !== 'contracts')
      out.set(
        a,
        `not run: --grep selects contract tests only (--area contracts,${a} runs ${a} too)`,
      );
  }
  return out;
}

/** `--area`/`--skip` values (repeatable, comma-separated) as areas; unknown names are refused. */
export function parseAreas(flag: string, values: readonly string[] | undefined): Area[] {
  const names = (values ?? []).flatMap((s) => s.split(',').map((n) => n.trim())).filter(Boolean);
  const bad = names.filter((s) => !(AREAS as readonly string[]).includes(s));
  if (bad.length) throw new Error(`${flag} takes ${AREAS.join(', ')}; got ${bad.join(', ')}`);
  return names as Area[];
}
