/**
 * What a run looked at, per documented rule of the contract suite: its cells of the rule ×
 * operation matrix (checked, or not reached and why) and its tests (run, or not and why) — and
 * whether the target's own answers kept it from being checked on most of what it applies to.
 *
 * Only the target's answers can make a rule `unchecked`: a 429 where the rule's answer should have
 * been (its rate limiter answering in the rule's place: every keyless request answered 429 showed
 * nothing of authentication), a test its rate limit stopped. What an option the user did not give
 * leaves out (a read-only key, the other workspace's key, a writable run, --grep,
 * --max-requests), and an assumed route or object the target does not have (an assumption
 * mismatch, reported as such), is counted and said here too, and never makes a run less than a
 * pass: the user chose the first, the second is a reading of the docs' gaps.
 *
 * "Most": more than half of the rule's matrix cells, or more than half of the tests tagged with it
 * (a rule the matrix does not hold has only its tests) — one operation the limiter happened to
 * refuse is noise, a rule the gate never saw past the limiter is not.
 */
import type { RuleMatrix } from './rule-matrix.ts';

/** What the coverage reads of a contract test (contracts/collect.ts TestRow). */
export interface CoveredTest {
  title: string;
  status: string;
  /** Its check tags, as Playwright's JSON report gives them (`auth.rotated-key-rejected`; `@…` too). */
  tags: readonly string[];
  reason?: string;
  /** Skipped because the target's own answers kept it from its checks (a spent rate limit). */
  byTarget?: boolean;
}

/** Cells or tests left out for one reason. */
export interface LeftOut {
  why: string;
  count: number;
  /** The target's own answers left them out (not an option, not an assumption). */
  byTarget?: true;
}

export interface RuleCoverage {
  check: string;
  rule: string;
  /** Its cells of the matrix, when it declares where it applies: those it applies to. */
  cells?: { applies: number; checked: number; notReached: LeftOut[] };
  /** The tests tagged with it: how many ran, and those that did not, by reason. */
  tests: { tagged: number; ran: number; notRun: LeftOut[] };
  /** How many times the run judged it, anywhere (summary.json `checks`). */
  judged: number;
  /** Why the target's answers kept it from being checked on most of what it applies to. */
  unchecked?: string;
}

/** A documented rule of the catalogue. */
export interface DocumentedRule {
  name: string;
  rule: string;
}

function grouped(items: ReadonlyArray<{ why: string; byTarget?: boolean }>): LeftOut[] {
  const by = new Map<string, LeftOut>();
  for (const i of items) {
    const k = `${i.byTarget ? 1 : 0}\u0000${i.why}`;
    const g = by.get(k) ?? { why: i.why, count: 0, ...(i.byTarget ? { byTarget: true } : {}) };
    g.count++;
    by.set(k, g);
  }
  return [...by.values()].sort((a, b) => b.count - a.count);
}

const kept = (left: readonly LeftOut[]) =>
  left.filter((l) => l.byTarget).reduce((n, l) => n + l.count, 0);

/** The target's reasons, most frequent first, as one clause. */
const becauseOf = (left: readonly LeftOut[]) =>
  left
    .filter((l) => l.byTarget)
    .map((l) => l.why)
    .join('; ');

/** Why the target kept the rule from being checked on most of what it applies to, or undefined. */
function uncheckedWhy(c: Omit<RuleCoverage, 'unchecked'>): string | undefined {
  const cells = c.cells;
  if (cells && cells.applies > 0 && kept(cells.notReached) * 2 > cells.applies)
    return `not reached on ${kept(cells.notReached)} of the ${cells.applies} operations and events it applies to — ${becauseOf(cells.notReached)}`;
  if (c.tests.tagged > 0 && kept(c.tests.notRun) * 2 > c.tests.tagged)
    return `${kept(c.tests.notRun)} of its ${c.tests.tagged} tests not run — ${becauseOf(c.tests.notRun)}`;
  return undefined;
}

/**
 * The coverage of each documented rule the run's matrix or tests name (a rule neither names —
 * another area's, or a --grep run's — is not listed).
 */
export function ruleCoverage(
  rules: readonly DocumentedRule[],
  matrix: RuleMatrix | undefined,
  tests: readonly CoveredTest[],
  /** Each check's judgements in the run (summary.json `checks`). */
  judgements: ReadonlyArray<{ name: string; passed: number; failed: number }> = [],
): RuleCoverage[] {
  const rows = new Map((matrix?.rows ?? []).map((r) => [r.check, r]));
  const judged = new Map(judgements.map((j) => [j.name, j.passed + j.failed]));
  const out: RuleCoverage[] = [];
  for (const { name, rule } of rules) {
    const tagged = tests.filter((t) => t.tags.some((tag) => tag.replace(/^@/, '') === name));
    const row = rows.get(name);
    if (!row && tagged.length === 0) continue;
    const cells = row ? Object.values(row.cells).filter((c) => c.state !== 'n/a') : undefined;
    const notRun = tagged.filter((t) => t.status === 'skipped' || t.status === 'interrupted');
    const c: Omit<RuleCoverage, 'unchecked'> = {
      check: name,
      rule,
      judged: judged.get(name) ?? 0,
      ...(cells
        ? {
            cells: {
              applies: cells.length,
              checked: cells.filter((x) => x.state === 'checked').length,
              notReached: grouped(
                cells.flatMap((x) =>
                  x.state === 'not-reached' ? [{ why: x.why, byTarget: x.byTarget }] : [],
                ),
              ),
            },
          }
        : {}),
      tests: {
        tagged: tagged.length,
        ran: tagged.length - notRun.length,
        notRun: grouped(notRun.map((t) => ({ why: t.reason ?? t.status, byTarget: t.byTarget }))),
      },
    };
    const why = uncheckedWhy(c);
    out.push(why ? { ...c, unchecked: why } : c);
  }
  return out;
}

/** The rules a run's target kept from being checked: the run is not a clean pass (exit 2). */
export function uncheckedRules(
  coverage: readonly RuleCoverage[],
): Array<{ check: string; rule: string; why: string }> {
  return coverage.flatMap((c) =>
    c.unchecked ? [{ check: c.check, rule: c.rule, why: c.unchecked }] : [],
  );
}
