/** `harness compare`: formats, exit status by --fail-on, clear misuse errors. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { run } from '../../compat/commands/compare.ts';
import { SNAPSHOT_SCHEMA, SNAPSHOT_VERSION } from '../../core/snapshot/types.ts';

const dir = mkdtempSync(join(tmpdir(), 'harness-compare-cli-'));
const file = (name: string) => join(dir, name);

function snapshot(createStatus: string, gapValue: number) {
  return {
    schema: SNAPSHOT_SCHEMA,
    version: SNAPSHOT_VERSION,
    takenAt: new Date().toISOString(),
    target: 'embedded reference deployment',
    operations: {
      'POST /v1/tickets': {
        statuses: {
          [createStatus]: {
            count: 1,
            headers: ['content-type', 'x-ratelimit-limit'],
            contentTypes: ['application/json'],
            shape: { object: { id: 'string' } },
          },
        },
      },
    },
    gaps: { U5: { 'create status': gapValue } },
    limits: [],
  };
}

describe('harness compare', () => {
  before(() => {
    writeFileSync(file('base.json'), JSON.stringify(snapshot('201', 201)));
    writeFileSync(file('warn.json'), JSON.stringify(snapshot('201', 200)));
    mkdirSync(file('run'));
    writeFileSync(file('run/snapshot.json'), JSON.stringify(snapshot('200', 200)));
    writeFileSync(file('other.json'), JSON.stringify({ schema: 'harness/summary' }));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a removed status fails (exit 1); a report directory stands for its snapshot.json', async () => {
    const out = file('report.md');
    assert.equal(await run([file('base.json'), file('run'), '--out', out]), 1);
    const md = readFileSync(out, 'utf8');
    assert.match(md, /^## Behaviour compatibility report/, md);
    assert.match(md, /`status-removed` \| POST \/v1\/tickets no longer answers 201/, md);
    assert.match(md, /ERR 1 · WARN 1 · INFO 1/, md);
  });

  test('a gap value change passes by default and fails with --fail-on WARN', async () => {
    const out = file('warn.json.out');
    assert.equal(await run([file('base.json'), file('warn.json'), '--out', out]), 0);
    assert.equal(
      await run([file('base.json'), file('warn.json'), '--fail-on', 'warn', '--out', out]),
      1,
    );
  });

  test('JSON and JUnit carry the same findings', async () => {
    const json = file('r.json');
    const junit = file('r.xml');
    await run([file('base.json'), file('run'), '--format', 'json', '--out', json]);
    await run([file('base.json'), file('run'), '--format', 'junit', '--out', junit]);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      changed: boolean;
      counts: Record<string, number>;
      findings: Array<{ rule: string; provenance: string; pointer: Record<string, string> }>;
    };
    assert.equal(report.changed, true);
    assert.deepEqual(report.counts, { ERR: 1, WARN: 1, INFO: 1 });
    assert.deepEqual(report.findings.find((f) => f.rule === 'status-removed')?.pointer, {
      operation: 'POST /v1/tickets',
      status: '201',
    });
    assert.ok(
      report.findings.every((f) => f.provenance === 'observed'),
      'every finding is observed',
    );
    const xml = readFileSync(junit, 'utf8');
    assert.match(xml, /<testsuites name="compare" tests="3" failures="1" skipped="0">/, xml);
    assert.match(xml, /<failure type="ERR"/, xml);
  });

  test('what only one run exercised is left out, and the reports say so', async () => {
    const ran = (tests: string[], status: string) => ({
      ...snapshot(status, 201),
      exercised: { areas: ['contracts'], tests, ...(tests.length < 2 ? { grep: 'a' } : {}) },
      operations: {
        'POST /v1/tickets': {
          statuses: {
            [status]: {
              ...snapshot(status, 201).operations['POST /v1/tickets'].statuses[status],
              tests: ['b'],
            },
          },
        },
      },
    });
    writeFileSync(file('full.json'), JSON.stringify(ran(['a', 'b'], '201')));
    writeFileSync(file('part.json'), JSON.stringify({ ...ran(['a'], '201'), operations: {} }));
    const json = file('notes.json');
    const md = file('notes.md');
    assert.equal(
      await run([file('full.json'), file('part.json'), '--format', 'json', '--out', json]),
      0,
    );
    await run([file('full.json'), file('part.json'), '--out', md]);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    assert.deepEqual(report.findings, []);
    assert.ok(
      report.notes.some(
        (n: { message: string }) =>
          n.message ===
          'POST /v1/tickets 201: seen in the baseline only by tests this run did not run',
      ),
      JSON.stringify(report.notes),
    );
    assert.match(
      readFileSync(md, 'utf8'),
      /Left out of the comparison \(\d+ note\(s\); not findings\)/,
    );
  });

  test('a version 2 snapshot is still read; version 1 and 4 are refused with a way out', async () => {
    writeFileSync(file('v2.json'), JSON.stringify({ ...snapshot('201', 201), version: 2 }));
    assert.equal(await run([file('v2.json'), file('base.json'), '--out', file('v2.md')]), 0);
    for (const version of [1, 4]) {
      writeFileSync(file(`v${version}.json`), JSON.stringify({ ...snapshot('201', 201), version }));
      await assert.rejects(
        run([file(`v${version}.json`), file('base.json')]),
        /reads versions 2 and 3/,
      );
    }
  });

  test('misuse is a clear error', async () => {
    await assert.rejects(run([file('base.json')]), /expected two snapshots/);
    await assert.rejects(
      run([file('base.json'), file('base.json'), '--format', 'html']),
      /--format/,
    );
    await assert.rejects(
      run([file('base.json'), file('base.json'), '--fail-on', 'X']),
      /--fail-on/,
    );
    await assert.rejects(run([file('base.json'), file('other.json')]), /not a behaviour snapshot/);
    await assert.rejects(run([file('base.json'), file('missing.json')]), /no snapshot at/);
  });
});

test('docs/usage.md lists every compare rule with its level', async () => {
  const { RULES } = await import('../../compat/compare/rules.ts');
  const doc = readFileSync(new URL('../../docs/usage.md', import.meta.url), 'utf8');
  for (const [id, r] of Object.entries(RULES))
    assert.ok(doc.includes(`| \`${id}\` | ${r.level} |`), `docs/usage.md: rule ${id} (${r.level})`);
});
