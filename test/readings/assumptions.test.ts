/**
 * No documented verdict rests on an assumption unawares: every documented check (and documented
 * load verdict) declares the gaps its judgement may lean on, each of them a gap of
 * docs/assumptions.md that the readings catalogue reads otherwise at least once (so the leaning is
 * tried against a deployment); a violation that leans on a declared gap is an assumption
 * mismatch, one that leans on another is a harness bug.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { ALL_CHECKS } from '../../core/checks/all.ts';
import { VERDICT_RULES, verdictAssumptions } from '../../core/checks/load-verdicts.ts';
import { defineCheck } from '../../core/checks/registry.ts';
import { CheckRegistry } from '../../core/checks/registry.ts';
import { Verdict } from '../../core/checks/verdict.ts';
import { READINGS } from '../../server/readings/index.ts';

const GAPS = new Set(
  [
    ...readFileSync(new URL('../../docs/assumptions.md', import.meta.url), 'utf8').matchAll(
      /^\| (U\d+) \|/gm,
    ),
  ].map((m) => m[1]!),
);
GAPS.add('SLA');
const READ_GAPS = new Set(READINGS.map((r) => r.gap));

describe('the checks registry: what a documented judgement may rest on', () => {
  test('docs/assumptions.md lists the gaps U1–U27', () => {
    assert.equal(GAPS.size, 28);
  });

  for (const c of ALL_CHECKS.filter((x) => x.provenance === 'documented')) {
    test(`${c.name} declares its assumptions, each a gap some reading reads otherwise`, () => {
      assert.ok(Array.isArray(c.assumptions), 'assumptions declared ([] for none)');
      for (const gap of c.assumptions ?? []) {
        assert.ok(GAPS.has(gap), `${gap} is a gap of docs/assumptions.md`);
        assert.ok(READ_GAPS.has(gap), `a reading of ${gap} (server/readings/) tries it`);
      }
    });
  }

  for (const v of VERDICT_RULES.filter((x) => x.provenance === 'documented')) {
    test(`load verdict ${v.id} declares its assumptions, each a gap some reading reads otherwise`, () => {
      assert.ok('assumptions' in v && Array.isArray(v.assumptions), 'assumptions declared');
      for (const gap of verdictAssumptions(v.id)) {
        assert.ok(GAPS.has(gap), `${gap} is a gap of docs/assumptions.md`);
        assert.ok(READ_GAPS.has(gap), `a reading of ${gap} (server/readings/) tries it`);
      }
    });
  }

  test('a registry refuses a documented check that does not declare its assumptions', () => {
    assert.throws(
      () =>
        new CheckRegistry().register(
          defineCheck({
            name: 'x.y',
            provenance: 'documented',
            rule: 'r',
            kind: 'scenario',
            run: () => undefined,
          }),
        ),
      /must declare its assumptions/,
    );
  });
});

describe('a violation that leans on an assumption', () => {
  const leaning = (gaps: string[]) =>
    new CheckRegistry().register(
      defineCheck({
        name: 'x.leaning',
        provenance: 'documented',
        assumptions: gaps,
        rule: 'a documented rule',
        kind: 'scenario',
        run: () => ({
          received: 'what came',
          expected: 'what the rule wants',
          leansOn: { gap: 'U9', why: 'the kind came from an assumed field' },
        }),
      }),
    );

  test('is an assumption mismatch naming the gap, never fatal unless strict', () => {
    const v = new Verdict(leaning(['U9']) as never, 't');
    assert.equal(v.checkNamed('x.leaning', undefined, undefined), false);
    const r = v.results[0]!;
    assert.equal(r.provenance, 'assumed');
    assert.match(
      r.failure!.expected,
      /judged on an assumption \(U9\): the kind came from an assumed field/,
    );
    assert.equal(v.fatalMessage(false), undefined);
    assert.ok(v.fatalMessage(true));
  });

  test('on a gap the check does not declare is a harness bug', () => {
    const v = new Verdict(leaning([]) as never, 't');
    assert.throws(
      () => v.checkNamed('x.leaning', undefined, undefined),
      /not among its assumptions/,
    );
  });
});
