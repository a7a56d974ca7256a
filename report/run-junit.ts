/**
 * The run's junit.xml suites: one case per contract check (aggregated over the suite, failing
 * when a documented failure — or, strict, any — was recorded), then per other area its
 * documented failures, assumption mismatches (failing only when strict) and not-run items; an
 * area that could not run to its end (an unusable target: the `preflight` area), and a documented
 * rule the target's answers kept from being checked (`unchecked`), is an `<error>`.
 */
import { checks } from '../core/checks/index.ts';
import type { CheckResult } from '../core/checks/verdict.ts';
import type { JunitCase } from '../core/junit.ts';
import type { Summary } from './summary.ts';

export function junitSuites(
  summary: Summary,
  results: readonly CheckResult[],
): Record<string, JunitCase[]> {
  const suites: Record<string, JunitCase[]> = {};
  // Contracts: one case per check (aggregated over the suite), failures carry each distinct failure.
  suites.contracts = summary.checks.map((c) => {
    const fails = results.filter((r) => r.check === c.name && !r.passed).map((r) => r.failure!);
    const provenance = checks.has(c.name) ? checks.get(c.name).provenance : c.provenance;
    // Per failure, not per check: a documented check on a missing assumed route is demoted.
    const fatal =
      fails.some((f) => f.provenance === 'documented') || (fails.length > 0 && summary.strict);
    return {
      name: c.name,
      classname: `contracts.${provenance}`,
      failure: fatal
        ? {
            message: `${fails.length} failure(s)`,
            body: fails
              .map((f) => `Received: ${f.received}\nExpected: ${f.expected}\n${f.repro ?? ''}`)
              .join('\n\n'),
          }
        : undefined,
    };
  });
  for (const n of summary.areas.contracts?.notRun ?? [])
    suites.contracts.push({ name: n.name, classname: 'contracts.not-run', skipped: n.reason });
  // A documented rule the target's answers kept from being checked: the gate could not look.
  for (const u of summary.unchecked ?? [])
    suites.contracts.push({
      name: `${u.check} checked`,
      classname: 'contracts.unchecked',
      error: { message: u.why, body: `${u.rule}\n${u.why}` },
    });
  for (const [area, a] of Object.entries(summary.areas)) {
    // An area that could not run to its end is one erroring case naming why.
    const error: JunitCase | undefined =
      a.verdict === 'error'
        ? {
            name:
              summary.unusable && area === 'preflight' ? 'target usable' : `${area} ran to its end`,
            classname: `${area}.error`,
            error: {
              message: a.error ?? a.headline,
              body: summary.unusable
                ? `${summary.unusable.cause}\nWhat to fix: ${summary.unusable.fix}`
                : (a.error ?? a.headline),
            },
          }
        : undefined;
    if (area === 'contracts') {
      if (error) suites.contracts.unshift(error);
      continue;
    }
    const cases: JunitCase[] = error ? [error] : [];
    for (const f of a.documentedFailures)
      cases.push({
        name: f.check,
        classname: `${area}.documented`,
        failure: { message: f.received, body: `${f.expected}\n${f.rule}` },
      });
    for (const f of a.assumptionMismatches) {
      cases.push({
        name: f.check,
        classname: `${area}.assumed`,
        failure: summary.strict ? { message: f.received, body: f.expected } : undefined,
      });
    }
    for (const n of a.notRun)
      cases.push({ name: n.name, classname: `${area}.not-run`, skipped: n.reason });
    if (cases.length === 0) cases.push({ name: a.headline, classname: `${area}.summary` });
    suites[area] = cases;
  }
  return suites;
}
