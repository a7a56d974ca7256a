/**
 * The gate against a deployment that reads the docs' gaps otherwise than we assume: `harness
 * serve --reading …` (server/readings/) as a separate process, reached only through the HARNESS_*
 * variables of the credentials file it writes, with a Team key, and `harness run --skip load` as a
 * separate process. Its webhooks as a user's dashboard has them: one endpoint subscribed to every
 * event all the time (every-event.yaml), so each delivery of the run, whichever test's action
 * fired it, is held to its cause; the admin surface stays, so the harness also subscribes its own
 * and reaches the SLA clock and key rotation. What a reading may do to the gate: nothing but
 * assumption mismatches — never a documented failure, never an area that cannot run.
 *
 * With `load`, the whole gate: the load area too, on the Team keys alone (the run's key among
 * them, as a user's Team gate has it), its schedule as fast as the deployment's clock
 * (`harness run --time-scale`). Growth's and Enterprise's keys are left out: at ten times the
 * clock the three plans' bursts together (4000 requests a real second each) are more than two
 * shared cores answer in time, and a burst phase that cannot drain its bucket measures nothing.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../core/net.ts';
import type { Failure } from '../../core/checks/types.ts';
import { sameProbeValue } from '../../compat/compare/compare-gaps.ts';
import type { LoadResult } from '../../load/lib/index.ts';
import type { Summary } from '../../report/summary.ts';
import type { Reading } from '../../server/readings/index.ts';
import { runHarness, serveReference } from '../harness/gate-processes.ts';
import { busyReason, RETRY_SLOWER } from '../load/measure.ts';

export interface ReadingRun {
  readings: string[];
  code: number | null;
  summary?: Summary;
  /** Documented failures of every area ("check: received"). */
  documented: string[];
  /** Assumption mismatches of every area. */
  mismatches: Failure[];
  /** Areas that could not run, with why. */
  errors: string[];
  /**
   * `probe:<gap>` for each gap whose probes recorded another value than the same gate recorded
   * against the deployment without readings, beyond run-to-run noise (timestamps, ids, timings: as
   * the compatibility report compares them): what only the behaviour snapshot shows of a reading.
   */
  probed: Set<string>;
  /** The gap probes of the run's snapshot.json. */
  gaps: Gaps;
  /** The load area's results (with `load`), one per plan. */
  load: LoadResult[];
  /** The deployment's clock speed, and the load schedule's. */
  timeScale: number;
  /** The end of the run's console output, for a failing assertion. */
  tail: string;
}

export interface GateOptions {
  /** The whole gate: the load area too, on the Team keys. Default false (`--skip load`). */
  load?: boolean;
  /** The deployment's clock speed (and the load schedule's). Default 10. */
  timeScale?: number;
  /** A k6 binary the run's load area takes (K6_BIN); default the Node engine. */
  k6?: string;
  /** Only these areas (`harness run --area`). Default all. */
  areas?: string[];
}

/** A reading only the load area reports: each of its `shows` is a load verdict (`load.<id>`). */
export const shownByLoad = (r: Reading): boolean => r.shows.every((s) => s.startsWith('load.'));

/** Why a run is not what a reading may do to the gate; [] when it is. */
export function problems(r: ReadingRun): string[] {
  const out: string[] = [];
  if (!r.summary) return [`no summary.json (exit ${r.code})\n${r.tail}`];
  if (r.documented.length) out.push(`documented failures:\n  ${r.documented.join('\n  ')}`);
  if (r.errors.length) out.push(`areas that could not run:\n  ${r.errors.join('\n  ')}`);
  if (r.code !== 0) out.push(`exit ${r.code}, verdict ${r.summary.verdict}\n${r.tail}`);
  return out;
}

/** The `shows` of `names` that the run reported. */
export function shown(r: ReadingRun, shows: readonly string[]): string[] {
  const checks = new Set(r.mismatches.map((m) => m.check));
  return shows.filter((s) => checks.has(s) || r.probed.has(s));
}

const ENDPOINTS = fileURLToPath(new URL('every-event.yaml', import.meta.url));

type Gaps = Record<string, Record<string, unknown>>;

function probedOtherwise(gaps: Gaps, reference: Gaps): Set<string> {
  const out = new Set<string>();
  for (const [gap, ids] of Object.entries(gaps))
    for (const [id, value] of Object.entries(ids))
      if (!sameProbeValue(id, reference[gap]?.[id], value)) out.add(`probe:${gap}`);
  return out;
}

/** The same gate against the deployment without readings, once per process: what probes compare to. */
let reference: Promise<Gaps> | undefined;

/** One gate run against a fresh deployment with `readings` on (`serve` options `extra` beside). */
export async function gateOnReadings(
  readings: string[],
  extra: string[] = [],
  o: GateOptions = {},
): Promise<ReadingRun> {
  const timeScale = o.timeScale ?? 10;
  const secrets = {
    HOOK_EVERY_SECRET: `whsec_${randomBytes(12).toString('base64url')}`,
    HOOK_CREATED_SECRET: `whsec_${randomBytes(12).toString('base64url')}`,
  };
  const served = await serveReference(
    [],
    [
      ...(readings.length ? ['--reading', readings.join(',')] : []),
      '--webhook-endpoints',
      ENDPOINTS,
      '--webhook-url',
      `http://127.0.0.1:${await freePort()}`,
      // The Team bucket refills 20 a second instead of 2: the run never waits on it (its burst
      // and the headers stay the plan's).
      '--time-scale',
      String(timeScale),
      ...extra,
    ],
    secrets,
  );
  const teamOnly = Object.fromEntries(
    Object.entries(served.vars).filter(
      ([k]) => k !== 'HARNESS_GROWTH_KEYS' && k !== 'HARNESS_ENTERPRISE_KEYS',
    ),
  );
  const run = await runHarness(
    {
      ...(o.load ? teamOnly : served.vars),
      HARNESS_BASELINE: 'off',
      ...(o.k6 ? { K6_BIN: o.k6 } : {}),
    },
    [
      ...(o.load ? ['--time-scale', String(timeScale)] : ['--skip', 'load']),
      ...(o.areas ? ['--area', o.areas.join(',')] : []),
    ],
    { limitMs: 150_000 },
  );
  const summary = run.wrote('summary.json')
    ? (JSON.parse(run.read('summary.json')) as Summary)
    : undefined;
  const areas = Object.entries(summary?.areas ?? {});
  const gaps = run.wrote('snapshot.json')
    ? ((JSON.parse(run.read('snapshot.json')) as { gaps?: Gaps }).gaps ?? {})
    : {};
  // A gate with load is held to the load verdicts' mismatches, not to probes: it neither needs
  // nor makes the reference run.
  if (!o.load) {
    if (readings.length === 0) reference ??= Promise.resolve(gaps);
    else reference ??= gateOnReadings([], extra).then((r) => r.gaps);
  }
  return {
    readings,
    code: run.code,
    ...(summary ? { summary } : {}),
    documented: areas.flatMap(([a, x]) =>
      x.documentedFailures.map((f) => `${a}: [${f.check}] ${f.received}`),
    ),
    mismatches: areas.flatMap(([, x]) => x.assumptionMismatches),
    errors: areas
      .filter(([, x]) => x.verdict === 'error')
      .map(([a, x]) => `${a}: ${x.error ?? x.headline}`),
    probed: readings.length && reference ? probedOtherwise(gaps, await reference) : new Set(),
    gaps,
    load: (summary?.areas.load?.details as LoadResult[] | undefined) ?? [],
    timeScale,
    tail: `${run.stderr.slice(-1500)}\n${run.stdout.slice(-3000)}`,
  };
}

/**
 * `gateOnReadings` with the load area, and the one re-measurement the load suites allow
 * (test/load/measure.ts): when only the load area failed a documented rule and the machine
 * demonstrably could not keep its schedule, the gate runs once more on a fresh deployment whose
 * clock runs RETRY_SLOWER times slower. A documented failure on a machine that kept up stands.
 */
export async function gateWithLoad(
  readings: string[],
  o: Omit<GateOptions, 'load' | 'timeScale'> = {},
  log: (line: string) => void = () => {},
): Promise<ReadingRun> {
  const first = await gateOnReadings(readings, [], { ...o, load: true });
  const busy = busyReason(first.load);
  const onlyLoad =
    first.documented.length > 0 && first.documented.every((d) => d.startsWith('load:'));
  if (!onlyLoad || busy === undefined) return first;
  log(
    `${readings.join(',')}: ${first.documented.join('; ')} — machine busy (${busy}); once more, the clock ${RETRY_SLOWER}× slower`,
  );
  return gateOnReadings(readings, [], {
    ...o,
    load: true,
    timeScale: first.timeScale / RETRY_SLOWER,
  });
}
