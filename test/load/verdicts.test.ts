/**
 * The rate verdict's three outcomes, like the burst verdict's: outside r̂'s interval (floored at
 * ±1 %) fails, inside a narrow interval passes, inside an interval wider than ±3 % cannot vouch
 * for the plan and is inconclusive — never a pass.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judgeRateStatus, RATE_MAX_TOLERANCE } from '../../load/lib/index.ts';

const plan = 2; // tokens per second (Team)
const at = (relOff: number, relUncertainty: number) =>
  judgeRateStatus({ perS: plan * (1 + relOff), relUncertainty }, plan).status;

describe('rate verdict', () => {
  test('a precise measurement at the plan passes; 1 % slack for clock error', () => {
    assert.equal(at(0.002, 0.004), 'pass');
    assert.equal(at(-0.009, 0.002), 'pass');
  });
  test('the plan outside the interval fails, however close', () => {
    assert.equal(at(0.012, 0.005), 'fail');
    assert.equal(at(0.083, 0.01), 'fail'); // 130/min for 120
    assert.equal(at(-0.167, 0.02), 'fail'); // 100/min for 120
  });
  test('an interval wider than ±3 % never passes', () => {
    assert.equal(at(0.0, RATE_MAX_TOLERANCE + 0.01), 'inconclusive');
    assert.equal(at(0.02, 0.06), 'inconclusive');
    assert.equal(at(0.09, 0.06), 'fail');
  });
  test('no estimate is inconclusive', () => {
    assert.equal(at(Number.NaN, Number.NaN), 'inconclusive');
  });
});
