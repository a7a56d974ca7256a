/**
 * The body as a whole broken, not one field: JSON that is not an object (`non-object`), text that
 * is not JSON (`malformed-json`), another Content-Type or none (`media-type`), more bytes than the
 * API accepts (`over-body-limit`).
 */
import fc from 'fast-check';
import { type BodyCase, paddedJson } from './body-case.ts';
import type { BodyTargets } from './targets.ts';

export function nonObjectArb(t: BodyTargets): fc.Arbitrary<BodyCase> {
  return fc
    .oneof(
      fc.constantFrom<unknown>(null, true, false, 0, -1, 1e308, '', 'ticket', []),
      fc.array(t.valid, { minLength: 1, maxLength: 2 }),
      fc
        .jsonValue({ maxDepth: 2 })
        .filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)),
    )
    .map(
      (json): BodyCase => ({
        kind: 'non-object',
        note: 'the body is JSON but not an object',
        json,
      }),
    );
}

export function malformedJsonArb(t: BodyTargets): fc.Arbitrary<BodyCase> {
  return fc
    .record({
      json: t.valid,
      how: fc.constantFrom(
        'truncate',
        'trailing-comma',
        'single-quotes',
        'empty',
        'garbage',
        'bom',
        'two-documents',
        'nan',
      ),
      cut: fc.nat(),
    })
    .map(({ json, how, cut }): BodyCase => {
      const text = JSON.stringify(json);
      const raw = {
        truncate: text.slice(0, Math.max(1, cut % text.length)),
        'trailing-comma': text.replace(/}$/, ',}'),
        'single-quotes': text.replace(/"/g, "'"),
        empty: '',
        garbage: 'subject=hello&requester=x',
        bom: `\uFEFF${text}`,
        'two-documents': `${text}${text}`,
        nan: text.replace(/}$/, ',"n":NaN}'),
      }[how];
      return { kind: 'malformed-json', note: `malformed JSON (${how})`, raw };
    });
}

export function mediaTypeArb(t: BodyTargets): fc.Arbitrary<BodyCase> {
  return fc
    .record({
      json: t.valid,
      type: fc.constantFrom<string | null>(
        null,
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'APPLICATION/JSON',
        'application/json;;',
      ),
    })
    .map(
      ({ json, type }): BodyCase => ({
        kind: 'media-type',
        note: type === null ? 'no Content-Type' : `Content-Type ${type}`,
        json,
        contentType: type,
      }),
    );
}

/**
 * A valid body padded with insignificant whitespace so that it exceeds `bodyLimit` bytes, by at
 * most 4 KiB (body-case.ts `paddedJson`: the bulk in no value a list would show).
 */
export function overBodyLimitArb(
  t: BodyTargets,
  bodyLimit: number,
): fc.Arbitrary<BodyCase> | undefined {
  if (t.strings.length === 0) return undefined;
  return fc.record({ json: t.valid, extra: fc.integer({ min: 1, max: 4096 }) }).map(
    ({ json, extra }): BodyCase => ({
      kind: 'over-body-limit',
      note: `a valid body padded with whitespace to ${bodyLimit + extra} bytes: the body exceeds the ${bodyLimit}-byte limit`,
      raw: paddedJson(json, bodyLimit + extra),
    }),
  );
}
