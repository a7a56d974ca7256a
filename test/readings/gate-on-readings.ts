/**
 * The gate against a deployment that reads the docs' gaps otherwise than we assume: `harness
 * serve --reading …` (server/readings/) as a separate process, reached only through the HARNESS_*
 * variables of the credentials file it writes, with a Team key, and `harness run --skip load` as a
 * separate process. Its webhooks as a user's dashboard has them: one endpoint subscribed to every
 * event all the time (every-event.yaml), so each delivery of the run, whichever test's action
 * fired it, is held to its cause; the admin surface stays, so the harness also subscribes its own
 * and reaches the SLA clock and key rotation. What a reading may do to the gate: nothing but
 * assumption mismatches — never a documented failure, never an area that cannot run.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../core/net.ts';
import type { Failure } from '../../core/checks/types.ts';
import { sameProbeValue } from '../../compat/compare/compare-gaps.ts';
import type { Summary } from '../../report/summary.ts';
import { runHarness, serveReference } from '../harness/gate-processes.ts';

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
  /** The end of the run's console output, for a failing assertion. */
  tail: string;
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
): Promise<ReadingRun> {
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
      '10',
      ...extra,
    ],
    secrets,
  );
  const run = await runHarness({ ...served.vars, HARNESS_BASELINE: 'off' }, ['--skip', 'load'], {
    limitMs: 150_000,
  });
  const summary = run.wrote('summary.json')
    ? (JSON.parse(run.read('summary.json')) as Summary)
    : undefined;
  const areas = Object.entries(summary?.areas ?? {});
  const gaps = run.wrote('snapshot.json')
    ? ((JSON.parse(run.read('snapshot.json')) as { gaps?: Gaps }).gaps ?? {})
    : {};
  if (readings.length === 0) reference ??= Promise.resolve(gaps);
  else reference ??= gateOnReadings([], extra).then((r) => r.gaps);
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
    probed: readings.length ? probedOtherwise(gaps, await reference) : new Set(),
    gaps,
    tail: `${run.stderr.slice(-1500)}\n${run.stdout.slice(-3000)}`,
  };
}
