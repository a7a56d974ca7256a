/**
 * Every spec change is seen: any single edit of a real spec — a value changed, a member removed,
 * a member added, anywhere in the document — yields at least one finding, both ways. The edits
 * are taken deterministically across the whole of spec/openapi.yaml (values, keys, extensions,
 * descriptions, `info`, components); a change no rule rates comes out as INFO
 * (`description-changed`, `annotation-changed`, `other-change`), never as silence.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { diffSpecs, loadSpec } from '../../compat/diff/index.ts';
import { SPEC_PATH } from '../../core/spec/load-spec.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Every member of the document as [parent, key, path], depth first. */
function members(doc: unknown): Array<[Obj | unknown[], string | number, string]> {
  const out: Array<[Obj | unknown[], string | number, string]> = [];
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v))
      for (const [i, x] of v.entries()) {
        out.push([v, i, `${path}/${i}`]);
        walk(x, `${path}/${i}`);
      }
    else if (isObj(v))
      for (const [k, x] of Object.entries(v)) {
        out.push([v, k, `${path}/${k}`]);
        walk(x, `${path}/${k}`);
      }
  };
  walk(doc, '');
  return out;
}

const spec = loadSpec(SPEC_PATH);
const all = members(spec).filter(([, k, path]) => k !== '$ref' && path !== '/openapi');
/** Every 7th member: a few hundred edits spread over the whole document. */
const picked = all.filter((_, i) => i % 7 === 3);

/** The edit of kind `kind` at member `at` of a copy of the spec; undefined when it does not apply. */
function edited(kind: 'value' | 'remove' | 'add', at: number): Obj | undefined {
  const copy = structuredClone(spec) as Obj;
  const [, key, path] = picked[at]!;
  const parent = members(copy).find(([, , p]) => p === path)?.[0];
  if (!parent) return undefined;
  const v = (parent as Obj)[key as string];
  if (kind === 'value') {
    if (typeof v === 'string') (parent as Obj)[key as string] = `${v}-edited`;
    else if (typeof v === 'number') (parent as Obj)[key as string] = v + 1;
    else if (typeof v === 'boolean') (parent as Obj)[key as string] = !v;
    else return undefined;
  } else if (kind === 'remove') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete (parent as Obj)[key as string];
  } else {
    if (!isObj(v)) return undefined;
    v['x-added-by-test'] = 'something new';
  }
  return copy;
}

describe('diff-spec sees every change', () => {
  test('the edits cover the document', () => {
    assert.ok(picked.length >= 150, `only ${picked.length} members picked`);
  });
  for (const kind of ['value', 'remove', 'add'] as const)
    test(`${kind}: each edit yields at least one finding, both ways`, () => {
      const silent: string[] = [];
      let tried = 0;
      for (let i = 0; i < picked.length; i++) {
        const changed = edited(kind, i);
        if (!changed) continue;
        tried++;
        if (diffSpecs(spec, changed).length === 0) silent.push(`${picked[i]![2]} (forward)`);
        if (diffSpecs(changed, spec).length === 0) silent.push(`${picked[i]![2]} (reverse)`);
      }
      assert.ok(tried >= 40, `only ${tried} ${kind} edits applied`);
      assert.deepEqual(silent, [], `${silent.length} of ${tried} edits went unseen`);
    });
});
