/**
 * The class sampler packed for the gate-sized fuzz (fuzz/fuzz-size.ts): every input class the
 * full sampler (class-sampler.ts) sends to a request schema, in far fewer bodies — each field of
 * one body carries its own class at once (the subject every text sample and 255 code points, the
 * requester's name the same, the message 10 000 code points, the tags 50 items of every sample…).
 *
 * What may share a body, and what may not (it would mask the others):
 * - valid values share freely: a valid body is processed whole, so each of its values is tested;
 * - too-long values and too-many-items lists share only with each other: each alone makes the body
 *   invalid under the same rule (a schema violation the docs do not state: U20's 422), so whichever
 *   the target notices, the judge holds it to the one rule that applies. One of them is always a
 *   subject of 1 000 code points (a subject too long for a 300-character index, sent past 255);
 * - a body over the size limit stays alone (its own rule, U26's 413);
 * - dropped required fields share only with each other, never one inside another (the requester
 *   alone, its email with the subject): on the creation input a documented drop is in every such
 *   body, so the documented rule applies whichever the target noticed.
 * Each packed body keeps its one-class cases (`parts`): when it fails, they are sent one by one
 * and the first that fails alone is the counterexample, so the report names the input.
 */
import { hasLoneSurrogate } from '../../../core/unicode.ts';
import { BOUNDARY_LENGTHS } from '../input-classes.ts';
import { codePointLength } from '../hostile-text-arb.ts';
import { type JsonSchema, type SchemaSite, sitePath } from '../schema-arb.ts';
import { type BodyCase, type BodyCaseKind, paddedJson } from './body-case.ts';
import { plainValue, type SamplerOptions, TEXT_SAMPLES } from './class-sampler.ts';
import { deleteAt, setAt } from './json-path.ts';
import type { BodyTargets } from './targets.ts';

type Path = ReadonlyArray<string | number>;

/** One value the packed body sets, and the one-class cases it stands for. */
interface Slot {
  path: Path;
  value: unknown;
  parts: BodyCase[];
  /** A string of exactly this many code points, no text sample on it yet. */
  length?: number;
}

const ACCEPTED: ReadonlySet<BodyCaseKind> = new Set(['valid', 'at-limit']);

/** True for the kinds a correct deployment accepts. */
export const expectedAccepted = (c: Pick<BodyCase, 'kind'>) => ACCEPTED.has(c.kind);

/** The kind a string of `n` code points makes at `site`, by its maxLength. */
function lengthKind(site: SchemaSite, n: number): BodyCaseKind {
  const max = site.schema.maxLength;
  if (max === undefined || n < max) return 'valid';
  return n === max ? 'at-limit' : 'too-long';
}

/**
 * Joins text samples into chunks that fit `max` code points. A lone surrogate goes alone: text
 * with one is not Unicode, so the echo rules do not judge it (ticket.subject-echoed) — beside it,
 * an emoji the target mangles would go unseen.
 */
function chunks(max: number | undefined): Array<typeof TEXT_SAMPLES> {
  type Sample = (typeof TEXT_SAMPLES)[number];
  const out: Sample[][] = [];
  let cur: Sample[] = [];
  const len = (xs: Sample[]) => codePointLength(xs.map((x) => x.text).join(' '));
  for (const s of TEXT_SAMPLES.filter((x) => !hasLoneSurrogate(x.text))) {
    if (cur.length > 0 && max !== undefined && len([...cur, s]) > max) {
      out.push(cur);
      cur = [];
    }
    cur.push(s);
  }
  if (cur.length > 0) out.push(cur);
  return [...out, ...TEXT_SAMPLES.filter((x) => hasLoneSurrogate(x.text)).map((s) => [s])];
}

/** A packed body from `slots` on `plain`: its kind is its parts' (at-limit over valid). */
function packed(plain: unknown, slots: Slot[]): BodyCase {
  let json = plain;
  for (const s of slots) json = setAt(json, s.path, s.value);
  const parts = slots.flatMap((s) => s.parts);
  if (parts.length === 1) return parts[0]!;
  const kinds = new Set(parts.map((p) => p.kind));
  const kind: BodyCaseKind = [...kinds].every((k) => ACCEPTED.has(k))
    ? kinds.has('at-limit')
      ? 'at-limit'
      : 'valid'
    : parts.find((p) => !ACCEPTED.has(p.kind))!.kind;
  const what = parts.map((p) => p.note.replace(/^class sampler: |^sampler: /, '')).join('; ');
  return { kind, note: `class sampler, packed (${parts.length} inputs): ${what}`, json, parts };
}

/**
 * The packed sampler of `schema`: valid bodies, then invalid ones (too long, too many items),
 * the body over the size limit, and the dropped required fields. Empty when the schema has no
 * place for any class.
 */
export function packedSampler(
  schema: JsonSchema,
  t: BodyTargets,
  options: SamplerOptions,
): BodyCase[] {
  const plain = plainValue(schema, t.resolve);
  const one = (kind: BodyCaseKind, note: string, path: Path, value: unknown): BodyCase => ({
    kind,
    note: `class sampler: ${note}`,
    json: setAt(plain, path, value),
  });
  const text = t.strings.filter((s) => s.schema.format === undefined);
  const fields = text.filter((s) => !s.path.some((p) => typeof p === 'number'));
  const items = text.filter((s) => s.path.some((p) => typeof p === 'number'));
  const primary = fields[0];
  const tags = t.arrays.find((a) => a.path.length === 1 && a.path[0] === 'tags');
  const valid = new Map<SchemaSite, Slot[]>(fields.map((f) => [f, []]));
  const invalid = new Map<SchemaSite, Slot[]>(fields.map((f) => [f, []]));
  const lengthSlot = (f: SchemaSite, n: number): Slot => {
    return {
      path: f.path,
      value: 'a'.repeat(n),
      length: n,
      parts: [
        one(
          lengthKind(f, n),
          `${sitePath(f.path)} of ${n} code points (maxLength ${f.schema.maxLength ?? 'none'})`,
          f.path,
          'a'.repeat(n),
        ),
      ],
    };
  };

  // Lengths: each field at its own limit and one past it; a subject-like first field well past
  // its limit too; every other boundary where it is valid (the field allowing the most), else
  // too long wherever it lands.
  const placed = new Set<number>();
  const leftover: number[] = [];
  if (primary) {
    for (const f of fields) {
      const m = f.schema.maxLength;
      if (m === undefined) continue;
      if ((BOUNDARY_LENGTHS as readonly number[]).includes(m)) {
        valid.get(f)!.push(lengthSlot(f, m));
        placed.add(m);
      }
      if ((BOUNDARY_LENGTHS as readonly number[]).includes(m + 1)) {
        invalid.get(f)!.push(lengthSlot(f, m + 1));
        placed.add(m + 1);
      }
    }
    const pm = primary.schema.maxLength;
    const far = pm === undefined ? undefined : BOUNDARY_LENGTHS.find((n) => n > pm + 1);
    if (far !== undefined && !placed.has(far)) {
      invalid.get(primary)!.push(lengthSlot(primary, far));
      placed.add(far);
    }
    for (const n of BOUNDARY_LENGTHS) {
      if (placed.has(n)) continue;
      const room = fields
        .filter((f) => f.schema.maxLength === undefined || f.schema.maxLength > n)
        .sort((a, b) => (b.schema.maxLength ?? Infinity) - (a.schema.maxLength ?? Infinity))[0];
      if (room) valid.get(room)!.push(lengthSlot(room, n));
      else leftover.push(n);
    }
  }

  // Text: every sample in every free-text field, as many to a value as its maxLength takes; a
  // chunk rides on a length of the same field when it fits (padded to the exact length).
  for (const f of fields) {
    const slots = valid.get(f)!;
    for (const group of chunks(f.schema.maxLength)) {
      const joined = group.map((g) => g.text).join(' ');
      const textParts = group.map((g) =>
        one('valid', `${g.note} in ${sitePath(f.path)}`, f.path, g.text),
      );
      const size = codePointLength(joined);
      const host = slots
        .filter((s) => s.length !== undefined && s.length > size)
        .sort((a, b) => a.length! - b.length!)[0];
      if (host) {
        host.value = `${joined} ${'a'.repeat(host.length! - size - 1)}`;
        host.length = undefined;
        host.parts = [...textParts, ...host.parts];
      } else slots.push({ path: f.path, value: joined, parts: textParts });
    }
  }

  // Tags lists: empty, one, at the most (every sample among its items) are valid; one more and a
  // thousand are invalid, and carry the lengths no field could (as too-long items).
  const validTags: Slot[] = [];
  const invalidTags: Slot[] = [];
  if (tags) {
    const max = tags.schema.maxItems!;
    const list = (n: number) => Array.from({ length: n }, (_, i) => `tag-${i}`);
    const listSlot = (n: number, kind: BodyCaseKind, value = list(n)): Slot => ({
      path: tags.path,
      value,
      parts: [one(kind, `${n} tags (maxItems ${max})`, tags.path, list(n))],
    });
    validTags.push(listSlot(0, 'valid'), listSlot(1, 'valid'));
    const item = items.find((s) => s.path[0] === 'tags');
    const withText = Array.from({ length: max }, (_, i) => {
      const s = TEXT_SAMPLES[i % TEXT_SAMPLES.length]!.text;
      return i < TEXT_SAMPLES.length ? s : `${s} ${i}`;
    });
    const full = listSlot(max, 'at-limit', item ? withText : list(max));
    if (item)
      full.parts.push(
        ...TEXT_SAMPLES.map((g) =>
          one('valid', `${g.note} in ${sitePath(item.path)}`, tags.path, [g.text]),
        ),
      );
    validTags.push(full);
    for (const n of [max + 1, 1000]) invalidTags.push(listSlot(n, 'too-many-items'));
    for (const [i, n] of leftover.entries()) {
      const host = invalidTags[i % invalidTags.length]!;
      const at = Math.floor(i / invalidTags.length);
      (host.value as string[])[at] = 'a'.repeat(n);
      host.parts.push(
        one(
          lengthKind(item ?? tags, n),
          `tags[0] of ${n} code points (maxLength ${item?.schema.maxLength ?? 'none'})`,
          tags.path,
          ['a'.repeat(n)],
        ),
      );
    }
  } else if (primary) for (const n of leftover) invalid.get(primary)!.push(lengthSlot(primary, n));

  const rows = (byField: Map<SchemaSite, Slot[]>, lists: Slot[]): Slot[][] => {
    const count = Math.max(lists.length, ...[...byField.values()].map((v) => v.length));
    return Array.from({ length: count }, (_, i) => [
      ...[...byField.values()].flatMap((v) => (v[i] ? [v[i]!] : [])),
      ...(lists[i] ? [lists[i]!] : []),
    ]);
  };
  const out: BodyCase[] = rows(valid, validTags).map((slots) => packed(plain, slots));

  // The first valid body padded with insignificant whitespace to just under the size limit.
  const first = out[0];
  if (first && primary) {
    const json = JSON.stringify(first.json);
    const pad = options.bodyLimit - 1024 - Buffer.byteLength(json);
    if (pad > 0) {
      const plainJson = JSON.stringify(plain);
      const plainPad = options.bodyLimit - 1024 - Buffer.byteLength(plainJson);
      out[0] = {
        ...first,
        note: `${first.parts ? first.note.replace(/\((\d+) inputs\)/, (_, n) => `(${Number(n) + 1} inputs)`) : `class sampler, packed (2 inputs): ${first.note.replace(/^class sampler: /, '')}`}; padded with whitespace to ${options.bodyLimit - 1024} bytes, 1 KiB under the ${options.bodyLimit}-byte limit`,
        json: undefined,
        raw: `${json.slice(0, -1)}${' '.repeat(pad)}}`,
        parts: [
          ...(first.parts ?? [first]),
          {
            kind: 'valid',
            note: `class sampler: a valid body of ${options.bodyLimit - 1024} bytes (whitespace), 1 KiB under the ${options.bodyLimit}-byte limit`,
            raw: `${plainJson.slice(0, -1)}${' '.repeat(Math.max(0, plainPad))}}`,
          },
        ],
      };
    }
  }
  out.push(...rows(invalid, invalidTags).map((slots) => packed(plain, slots)));
  if (primary)
    out.push({
      kind: 'over-body-limit',
      note: `class sampler: a valid body padded with whitespace to ${options.bodyLimit + 1024} bytes: the body exceeds the ${options.bodyLimit}-byte limit`,
      raw: paddedJson(plain, options.bodyLimit + 1024),
    });
  out.push(...droppedTogether(plain, t.required));
  return out;
}

/**
 * The required fields dropped, as few bodies as can hold them: never a field and one inside it
 * in the same body (the deepest first, so an object stays whole where its own field is dropped).
 */
function droppedTogether(plain: unknown, required: readonly SchemaSite[]): BodyCase[] {
  const within = (a: Path, b: Path) => a.length < b.length && a.every((k, i) => b[i] === k);
  const groups: SchemaSite[][] = [];
  for (const site of [...required].sort((a, b) => b.path.length - a.path.length)) {
    const g = groups.find((x) =>
      x.every((o) => !within(o.path, site.path) && !within(site.path, o.path)),
    );
    if (g) g.push(site);
    else groups.push([site]);
  }
  return groups.map((g) => {
    const parts = g.map(
      (site): BodyCase => ({
        kind: 'drop-required',
        note: `sampler: required ${sitePath(site.path)} dropped`,
        json: deleteAt(plain, site.path),
      }),
    );
    if (parts.length === 1) return parts[0]!;
    let json = plain;
    for (const site of g) json = deleteAt(json, site.path);
    return {
      kind: 'drop-required',
      note: `sampler, packed: required ${g.map((s) => sitePath(s.path)).join(' and ')} dropped`,
      json,
      parts,
    };
  });
}
