/**
 * The base/revision pairs of oasdiff's checker corpus (`../shared/corpora/oasdiff`), each diffed
 * in both directions. Shared by the conformance test and the script that regenerates its
 * expectations, so both always walk the same list.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const repoRoot = new URL('../../../', import.meta.url).pathname;

/** Where the corpus is: `HARNESS_OASDIFF_CORPUS`, else `../shared/corpora/oasdiff`. */
export function corpusDir(): string {
  return process.env.HARNESS_OASDIFF_CORPUS ?? join(repoRoot, '..', 'shared', 'corpora', 'oasdiff');
}

export function checkerDir(): string {
  return join(corpusDir(), 'data', 'checker');
}

export function corpusPresent(): boolean {
  return existsSync(checkerDir());
}

/**
 * Files that share a case but not the plain `_base`/`_revision` naming: paired the way
 * oasdiff's own checker tests compare them (the stem's base against each variant).
 */
const EXTRA: [string, string][] = [
  ['add_new_media_type_base.yaml', 'add_new_media_type_name_modified.yaml'],
  ['add_new_media_type_base.yaml', 'add_new_media_type_params_modified.yaml'],
  ['dependent_required_base.yaml', 'dependent_required_changed_revision.yaml'],
  [
    'request_param_multitype_to_array_31_base.yaml',
    'request_param_multitype_to_array_integer_31_revision.yaml',
  ],
  [
    'request_param_multitype_to_array_31_base.yaml',
    'request_param_multitype_to_constrained_array_31_revision.yaml',
  ],
  [
    'request_parameter_property_type_changed_base_int.yaml',
    'request_parameter_property_type_changed_revision.yaml',
  ],
  [
    'request_parameter_property_type_changed_base_num.yaml',
    'request_parameter_property_type_changed_revision.yaml',
  ],
  ['request_property_added_base.yaml', 'request_property_added_revision2.yaml'],
  ['request_property_added_base.yaml', 'request_property_added_with_default.yaml'],
  [
    'request_property_discriminator_added_base.yaml',
    'request_property_discriminator_added_property_name_changed.yaml',
  ],
  [
    'request_property_discriminator_added_revision.yaml',
    'request_property_discriminator_mapping_changed.yaml',
  ],
  [
    'response_property_discriminator_added_base.yaml',
    'response_property_discriminator_added_property_name_changed.yaml',
  ],
  [
    'response_property_discriminator_added_revision.yaml',
    'response_property_discriminator_mapping_changed.yaml',
  ],
  // Single files that are each other's before/after.
  ['request_body_became_required_base.yaml', 'request_body_became_optional_base.yaml'],
  ['tag_added_base.yaml', 'tag_removed_base.yaml'],
  ['operation_id_added_base.yaml', 'operation_id_removed_base.yaml'],
];

/**
 * Pairs from the corpus' data folder outside `checker/` (paths relative to `checkerDir()`):
 * oasdiff's recursive-schema cases, whose reverse must end (a cycle walked without a guard recurses forever), and in
 * which circular3's response schema is a `oneOf` `$ref` cycle with no schema at its end — the
 * object type must not be lost.
 */
export const OUTSIDE: [string, string][] = [
  ['../circular1.yaml', '../circular3.yaml'],
  ['../circular2.yaml', '../circular3.yaml'],
  ['../circular1.yaml', '../circular2.yaml'],
];

export interface Direction {
  /** Stable id: `base-file → revision-file` (file names without `.yaml`). */
  id: string;
  old: string;
  new: string;
}

/** Every pair in both directions, sorted by id. Paths are relative to `checkerDir()`. */
export function directions(files: string[] = readdirSync(checkerDir())): Direction[] {
  const have = new Set(files);
  const pairs: [string, string][] = [];
  for (const f of [...have].sort()) {
    if (!f.endsWith('.yaml') || !f.includes('_base')) continue;
    const r = f.replace('_base', '_revision');
    if (have.has(r)) pairs.push([f, r]);
  }
  for (const [a, b] of EXTRA) if (have.has(a) && have.has(b)) pairs.push([a, b]);
  const there = (f: string) => existsSync(join(checkerDir(), f));
  for (const [a, b] of OUTSIDE) if (there(a) && there(b)) pairs.push([a, b]);
  const strip = (f: string) => f.replace(/\.yaml$/, '').replace(/^\.\.\//, '');
  const out: Direction[] = [];
  for (const [a, b] of pairs) {
    out.push({ id: `${strip(a)} → ${strip(b)}`, old: a, new: b });
    out.push({ id: `${strip(b)} → ${strip(a)}`, old: b, new: a });
  }
  return out.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}
