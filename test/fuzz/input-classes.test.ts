/**
 * The input classes of the API input fuzz: each is recognised in what a case sent, the class
 * sampler of every operation sends every class that applies to it by construction (not by the
 * luck of a seed), its bodies are what their kinds say by the spec's own validator, and a class
 * that no case carried is shown — as 0 in the console lines, "NOT SENT", a "not run" entry of the
 * area, and a marked cell of the HTML page.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { encodeBodyCase } from '../../fuzz/arbitraries/api-body-arb.ts';
import { TEXT_SAMPLES } from '../../fuzz/arbitraries/body-cases/class-sampler.ts';
import {
  applicableClasses,
  classesOf,
  INPUT_CLASSES,
  numberClass,
} from '../../fuzz/arbitraries/input-classes.ts';
import {
  integerEdges,
  percentEncode,
  queryProblem,
} from '../../fuzz/arbitraries/query-case-arb.ts';
import { classesNotSent, inputClassesLine } from '../../fuzz/api-input/class-coverage.ts';
import { type ClassCount, classCounts, operationCases } from '../../fuzz/api-input/cases.ts';
import { formatClasses } from '../../fuzz/api-input/format.ts';
import { API_INPUT_OPERATIONS, inputOperation } from '../../fuzz/api-input/operations.ts';
import { caseClasses, isSchemaValid, sentValue } from '../../fuzz/api-input/tally.ts';
import { renderHtml } from '../../report/html.ts';
import { summaryFixture } from '../harness/summary-fixture.ts';

const MiB = 1024 * 1024;

describe('input classes are read from what was sent', () => {
  test('every text class is carried by one of the sampler texts', () => {
    const ctx = { bodyLimit: MiB, body: true, text: true };
    const seen = new Set<string>();
    for (const s of TEXT_SAMPLES) for (const c of classesOf({ value: s.text }, ctx)) seen.add(c);
    const text = INPUT_CLASSES.filter((c) => c.family === 'text').map((c) => c.name);
    assert.deepEqual(
      text.filter((c) => !seen.has(c)),
      [],
    );
  });

  test('a class is what the text holds: an emoji is plane 1, 𠜎 plane 2, \\ud800 a lone surrogate', () => {
    const ctx = { bodyLimit: MiB, body: true, text: true };
    const of = (v: unknown) => [...classesOf({ value: v }, ctx)].sort();
    assert.deepEqual(of('plain ascii'), []);
    assert.deepEqual(of({ subject: 'a 😀' }), ['emoji', 'plane-1']);
    assert.deepEqual(of(['𠜎']), ['plane-2']);
    assert.deepEqual(of({ '\ud800': 'x' }), ['lone-surrogate'], 'keys count too');
    assert.deepEqual(of('a\u0000b'), ['nul']);
    assert.deepEqual(of('😀'.repeat(255)), ['emoji', 'length-255', 'plane-1'], 'code points');
    assert.deepEqual(of('a'.repeat(10_000)), ['length-10000']);
    assert.deepEqual(of('a'.repeat(10_001)), []);
  });

  test('body size and tags lists', () => {
    const ctx = { bodyLimit: MiB, body: true, text: true, tagsMax: 50 };
    const of = (bytes: number, tags?: unknown[]) =>
      [...classesOf({ value: tags ? { tags } : {}, bytes }, ctx)].sort();
    assert.deepEqual(of(10), []);
    assert.deepEqual(of(MiB - 16 * 1024), []);
    assert.deepEqual(of(MiB - 1024), ['body-near-limit']);
    assert.deepEqual(of(MiB), ['body-near-limit']);
    assert.deepEqual(of(MiB + 1), ['body-over-limit']);
    assert.deepEqual(of(10, []), ['tags-empty']);
    assert.deepEqual(of(10, ['a']), ['tags-one']);
    assert.deepEqual(of(10, Array(50).fill('a')), ['tags-at-max']);
    assert.deepEqual(of(10, Array(51).fill('a')), ['tags-over-max']);
    assert.deepEqual(of(10, Array(1000).fill('a')), ['tags-1000']);
  });

  test('numbers at the edges of their type: one class per edge, every class by integerEdges', () => {
    const b = { min: 1, max: 100 };
    assert.equal(numberClass('1', b), 'limit-min');
    assert.equal(numberClass('100', b), 'limit-max');
    assert.equal(numberClass('0', b), 'below-min');
    assert.equal(numberClass('-1', b), 'below-min');
    assert.equal(numberClass('101', b), 'above-max');
    assert.equal(numberClass('2147483648', b), 'int32-edge');
    assert.equal(numberClass('-2147483649', b), 'int32-edge');
    assert.equal(numberClass('9007199254740993', b), 'int53-edge');
    assert.equal(numberClass('1e309', b), 'float-edge');
    assert.equal(numberClass('5e-324', b), 'float-edge');
    assert.equal(numberClass('-0', b), 'float-edge');
    assert.equal(numberClass('1.5', b), 'non-integer');
    assert.equal(numberClass('1e2', b), 'non-integer');
    assert.equal(numberClass('0x10', b), 'non-integer');
    assert.equal(numberClass('', b), 'not-a-number');
    assert.equal(numberClass('NaN', b), 'not-a-number');
    assert.equal(numberClass('😀', b), 'not-a-number');
    const edges = new Set(integerEdges(1, 100).map((v) => numberClass(v, b)));
    const number = INPUT_CLASSES.filter((c) => c.family === 'number').map((c) => c.name);
    assert.deepEqual(
      number.filter((c) => !edges.has(c)),
      [],
    );
  });

  test('a query value is sent percent-encoded; a lone surrogate as its WTF-8 bytes', () => {
    assert.equal(percentEncode('a b😀'), 'a%20b%F0%9F%98%80');
    assert.equal(percentEncode('x\ud800'), 'x%ED%A0%80');
    assert.equal(percentEncode('\udfff'), '%ED%BF%BF');
    const list = inputOperation('listTickets');
    assert.equal(queryProblem(list.params!, { limit: '100' }), undefined);
    assert.match(queryProblem(list.params!, { limit: '101' }) ?? '', /above 100/);
    assert.match(queryProblem(list.params!, { limit: '1.5' }) ?? '', /not an integer/);
    assert.match(queryProblem(list.params!, { status: 'OPEN' }) ?? '', /not one of/);
    assert.equal(queryProblem(list.params!, { cursor: '😀' }), undefined);
  });
});

describe('the class sampler sends every class that applies, by construction', () => {
  for (const operation of API_INPUT_OPERATIONS) {
    test(`${operation}: every applicable class, in kinds the spec's validator agrees with`, () => {
      const op = inputOperation(operation);
      const { sampler, classes } = operationCases(op, MiB);
      const applicable = applicableClasses(classes).map((c) => c.name);
      assert.ok(applicable.length >= 18, `${operation}: ${applicable.length} classes apply`);
      const carried = new Set<string>();
      for (const c of sampler) {
        const { body } = c.query ? { body: '' } : encodeBodyCase(c, op.mediaType);
        const sent = sentValue(c);
        for (const name of caseClasses(c, sent, body, classes)) carried.add(name);
        const valid = isSchemaValid(op, c, sent);
        if (c.kind === 'valid' || c.kind === 'at-limit')
          assert.equal(valid, true, `${operation}: ${c.note} is schema-valid`);
        if (['too-long', 'too-many-items', 'over-body-limit'].includes(c.kind))
          assert.equal(valid, false, `${operation}: ${c.note} is schema-invalid`);
        if (c.kind === 'over-body-limit') assert.ok(Buffer.byteLength(body) > MiB, c.note);
      }
      assert.deepEqual(
        applicable.filter((n) => !carried.has(n)),
        [],
        `${operation}: classes the sampler does not send`,
      );
      // Bounded: the sampler is a floor under the budget, not a second fuzz run.
      assert.ok(sampler.length <= 30, `${operation}: ${sampler.length} sampler cases`);
      const big = sampler.filter((c) => encodeBodyCase(c, op.mediaType).body.length > 100_000);
      assert.ok(big.length <= 2, `${operation}: ${big.length} bodies over 100 kB`);
    });
  }

  test('the sampler is the same every run (no seed in it)', () => {
    const op = inputOperation('createTicket');
    const a = operationCases(op, MiB).sampler.map((c) => c.note);
    const b = operationCases(op, MiB).sampler.map((c) => c.note);
    assert.deepEqual(a, b);
  });
});

describe('a class no case carried is visible', () => {
  const classes = (zero: string): ClassCount[] =>
    classCounts(operationCases(inputOperation('createTicket'), MiB).classes, {}).map((c) => ({
      ...c,
      cases: c.name === zero ? 0 : 3,
    }));
  const op = (status: string, zero: string, extra: object = {}) => ({
    operation: 'createTicket',
    status,
    cases: 40,
    sampled: 25,
    classes: classes(zero),
    ...extra,
  });

  test('console: a line per family with counts, and NOT SENT naming the class', () => {
    const lines = formatClasses(classes('plane-2'));
    assert.ok(
      lines.some((l) => /^ {4}text: .*plane-2 0, plane-3 3/.test(l)),
      lines.join('\n'),
    );
    assert.equal(lines.at(-1), '    NOT SENT (0 cases): plane-2');
  });

  test('area: one "not run" entry per operation saying why; the headline counts the classes', () => {
    const r = {
      operations: [
        op('passed', 'plane-2', { interrupted: true }),
        op('failed', 'tags-1000'),
        op('passed', 'none'),
        op('skipped', 'emoji', { notRun: 'not run: the target stopped answering' }),
      ],
    } as never;
    assert.deepEqual(classesNotSent(r), [
      {
        name: 'fuzz.api-input createTicket: input classes not sent',
        reason:
          '0 cases carried plane-2: the time budget ran out before the class sampler was through',
      },
      {
        name: 'fuzz.api-input createTicket: input classes not sent',
        reason:
          '0 cases carried tags-1000: the operation stopped at its first failing case (see it)',
      },
    ]);
    const n = classes('none').length;
    assert.equal(
      inputClassesLine(r),
      `input classes ${4 * n - 3}/${4 * n} sent (class × operation)`,
    );
    assert.equal(
      inputClassesLine({ operations: [op('passed', 'none')] } as never),
      `input classes ${n}/${n} sent (class × operation)`,
    );
  });

  test('HTML: a row per class, a column per operation, 0 marked, n/a where it has no place', () => {
    const list = {
      operation: 'listTickets',
      status: 'passed',
      cases: 40,
      sampled: 21,
      classes: classCounts(operationCases(inputOperation('listTickets'), MiB).classes, {
        'limit-min': 1,
      }),
    };
    const summary = summaryFixture({
      areas: {
        fuzz: {
          verdict: 'pass',
          headline: 'fuzz',
          documentedFailures: [],
          assumptionMismatches: [],
          notRun: [],
          details: { input: { seed: 42, operations: [op('passed', 'plane-2'), list] } },
        },
      },
    });
    const html = renderHtml(summary);
    assert.match(html, /<h3>API input fuzz: input classes<\/h3>/);
    assert.match(html, /<th>createTicket<\/th><th>listTickets<\/th>/);
    // plane-2: 0 cases for create (marked), 0 for the list too.
    assert.match(
      html,
      /<td>plane-2<\/td><td><small>[^<]*<\/small><\/td><td class="fail">0<\/td><td class="fail">0<\/td>/,
    );
    // A number edge has no place in a creation; tags none in the list.
    assert.match(
      html,
      /<td>limit-min<\/td><td><small>[^<]*<\/small><\/td><td><small>n\/a<\/small><\/td><td>1<\/td>/,
    );
    assert.match(
      html,
      /<td>tags-one<\/td><td><small>[^<]*<\/small><\/td><td>3<\/td><td><small>n\/a<\/small><\/td>/,
    );
  });
});
