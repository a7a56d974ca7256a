/**
 * Every rule `diff-spec` can raise, with its default level — the one place levels are chosen:
 * emitters name a rule id only and `emit` (walk-context.ts) takes its level from here, and
 * `docs/usage.md` is generated from it.
 *
 * Most rules exist once per place in an exchange, named by a prefix: `request` and
 * `webhook-response` travel from the client (narrowing breaks), `response` and `webhook` travel to
 * it (widening breaks). A family gives the level for each direction; `-` means never raised there.
 */
import { type Level, LEVELS } from '../../core/level.ts';

type L = Level | '-';

export interface RuleFamily {
  /** The rule id without its prefix (`type-widened`), or the full id when `prefixed` is false. */
  id: string;
  /** Level where the client sends (`request-…`, `webhook-response-…`). */
  sent: L;
  /** Level where the client receives (`response-…`, `webhook-…`). */
  received: L;
  summary: string;
  /** Whole-operation rules (`path-removed`) carry no prefix. */
  prefixed?: false;
}

/** Where a prefixed rule can be raised, and which way its values travel. */
export const PREFIXES = [
  { prefix: 'request', way: 'sent' },
  { prefix: 'response', way: 'received' },
  { prefix: 'webhook', way: 'received' },
  { prefix: 'webhook-response', way: 'sent' },
] as const;

const family =
  (sent: L, received: L) =>
  (id: string, summary: string): RuleFamily => ({ id, sent, received, summary });
const narrowing = family('ERR', 'INFO');
const widening = family('INFO', 'ERR');
const both = (id: string, level: Level, summary: string) => family(level, level)(id, summary);

/** Sub-schema keywords whose presence constrains (absent or `true` = anything goes). */
const SLOTS: [string, string][] = [
  ['contains', '`contains`'],
  ['property-names', '`propertyNames`'],
  ['unevaluated-properties', '`unevaluatedProperties` (as a schema)'],
  ['unevaluated-items', '`unevaluatedItems`'],
  ['content-schema', '`contentSchema`'],
  ['then', '`then` of an `if`'],
  ['else', '`else` of an `if`'],
  ['additional-properties', '`additionalProperties` (as a schema)'],
  ['items-schema', '`items`'],
  ['pattern-property', 'a `patternProperties` entry'],
  ['dependent-schema', 'a `dependentSchemas` entry'],
  ['prefix-items', 'a `prefixItems` position'],
];

export const RULE_FAMILIES: RuleFamily[] = [
  // Schemas: types, values, bounds.
  both(
    'type-changed',
    'ERR',
    'type changed to one that neither contains nor is contained by the old',
  ),
  widening('type-widened', 'type accepts more (e.g. integer → number, + null)'),
  narrowing('type-narrowed', 'type accepts less'),
  widening(
    'enum-value-added',
    'enum value added — ERR for receivers: clients that switch over the values meet one they do not know',
  ),
  narrowing('enum-value-removed', 'enum value removed'),
  narrowing('enum-restricted', 'value now limited to an enum/const'),
  widening('enum-unrestricted', 'enum/const limit removed'),
  narrowing('extensible-enum-value-removed', '`x-extensible-enum` value removed'),
  both(
    'extensible-enum-value-added',
    'INFO',
    '`x-extensible-enum` value added (receivers must expect new values)',
  ),
  ...['length', 'range', 'items', 'contains', 'property-count'].flatMap((g) => [
    narrowing(
      `${g}-tightened`,
      `${g === 'range' ? 'minimum/maximum (exclusive too)' : g === 'items' ? 'minItems/maxItems/uniqueItems' : g === 'contains' ? 'minContains/maxContains (or `contains` false ↔ schema)' : g === 'length' ? 'minLength/maxLength' : 'minProperties/maxProperties'} tightened or newly set`,
    ),
    widening(
      `${g}-loosened`,
      `${g === 'range' ? 'minimum/maximum' : g === 'items' ? 'minItems/maxItems/uniqueItems' : g === 'contains' ? 'minContains/maxContains' : g === 'length' ? 'minLength/maxLength' : 'minProperties/maxProperties'} loosened or removed`,
    ),
  ]),
  narrowing(
    'format-added',
    '`format` set where there was none (e.g. `int64`, `uuid`): fewer values fit — as oasdiff rates it',
  ),
  widening(
    'format-removed',
    '`format` removed (e.g. `phone-number`): values of any form may arrive',
  ),
  widening(
    'format-widened',
    '`format` widened within its type (`int32` → `int64`, `float` → `double`)',
  ),
  narrowing(
    'format-narrowed',
    '`format` narrowed within its type (`int64` → `int32`, `double` → `float`)',
  ),
  both('format-changed', 'ERR', '`format` changed to another (e.g. `date` → `date-time`)'),
  narrowing('pattern-added', '`pattern` set where there was none'),
  widening('pattern-removed', '`pattern` removed'),
  both(
    'pattern-changed',
    'WARN',
    '`pattern` changed: whether it accepts more or less cannot be decided in general',
  ),
  both(
    'content-media-type-changed',
    'ERR',
    '`contentMediaType` changed: the string carries another format',
  ),
  both('content-media-type-added', 'WARN', '`contentMediaType` set'),
  both('content-media-type-removed', 'WARN', '`contentMediaType` removed'),
  both('content-encoding-changed', 'ERR', '`contentEncoding` changed (e.g. base64 → base32)'),
  both('content-encoding-added', 'WARN', '`contentEncoding` set'),
  both('content-encoding-removed', 'WARN', '`contentEncoding` removed'),
  {
    id: 'default-changed',
    sent: 'ERR',
    received: '-',
    summary:
      'default changed: senders that leave the value out get different behaviour (not for path parameters, always sent)',
  },
  narrowing('dependent-required-added', '`dependentRequired`: a property now requires another'),
  widening('dependent-required-removed', '`dependentRequired` entry removed'),
  // Properties.
  {
    id: 'property-removed',
    sent: 'WARN',
    received: 'ERR',
    summary:
      'property removed (receivers: a required one; senders still sending it may be rejected)',
  },
  {
    id: 'optional-property-removed',
    sent: '-',
    received: 'WARN',
    summary: 'optional property no longer sent',
  },
  narrowing(
    'property-became-required',
    'property became required (not for `readOnly` ones in requests / `writeOnly` in responses)',
  ),
  widening('property-became-optional', 'property became optional'),
  {
    id: 'required-property-added',
    sent: 'ERR',
    received: '-',
    summary: 'new required property (a default does not exempt it)',
  },
  both('property-added', 'INFO', 'new optional property (or required, for receivers)'),
  // Sub-schemas (JSON Schema 2020-12 applicators included).
  ...SLOTS.flatMap(([id, what]) => [
    narrowing(`${id}-added`, `${what} added`),
    widening(`${id}-removed`, `${what} removed`),
    ...(id === 'contains'
      ? []
      : [
          narrowing(`${id}-tightened`, `${what} became \`false\``),
          widening(`${id}-loosened`, `${what} was \`false\`, now a schema`),
        ]),
  ]),
  {
    id: 'additional-properties-closed',
    sent: 'WARN',
    received: 'INFO',
    summary:
      '`additionalProperties: false` added: like removing a property a sender may still send',
  },
  both('additional-properties-opened', 'INFO', '`additionalProperties: false` removed'),
  {
    id: 'unevaluated-properties-closed',
    sent: 'WARN',
    received: 'INFO',
    summary: '`unevaluatedProperties: false` added',
  },
  both('unevaluated-properties-opened', 'INFO', '`unevaluatedProperties: false` removed'),
  both(
    'if-changed',
    'ERR',
    'the `if` condition changed: values move between the `then` and `else` constraints',
  ),
  both(
    'not-changed',
    'ERR',
    '`not` changed so that values on the breaking side of it move (judged with the direction flipped)',
  ),
  both('not-changed-compatible', 'INFO', '`not` changed compatibly'),
  narrowing('not-added', '`not` added'),
  widening('not-removed', '`not` removed'),
  // Composition.
  both(
    'composition-wrapped',
    'INFO',
    'a schema became a bare `oneOf`/`anyOf` (e.g. `oneOf: [null, X]`); its branches are compared with the old schema',
  ),
  both('composition-unwrapped', 'INFO', 'a bare `oneOf`/`anyOf` became a single schema'),
  both(
    'one-of-ambiguous',
    'ERR',
    'values valid before now match several `oneOf` branches, so they fail `oneOf`',
  ),
  {
    id: 'one-of-added',
    sent: 'ERR',
    received: '-',
    summary: '`oneOf` added next to other keywords and no branch takes what was valid',
  },
  {
    id: 'any-of-added',
    sent: 'ERR',
    received: '-',
    summary: '`anyOf` added next to other keywords and no branch takes what was valid',
  },
  {
    id: 'one-of-removed',
    sent: '-',
    received: 'ERR',
    summary: '`oneOf` removed and what may now arrive fits no old branch',
  },
  {
    id: 'any-of-removed',
    sent: '-',
    received: 'ERR',
    summary: '`anyOf` removed and what may now arrive fits no old branch',
  },
  {
    id: 'branch-removed',
    sent: 'ERR',
    received: 'INFO',
    summary: '`oneOf`/`anyOf` branch removed and no remaining branch takes its values',
  },
  {
    id: 'branch-removed-covered',
    sent: 'INFO',
    received: '-',
    summary: 'branch removed; a remaining branch takes the same values',
  },
  {
    id: 'branch-added',
    sent: 'INFO',
    received: 'ERR',
    summary: '`oneOf`/`anyOf` branch added that fits no old branch',
  },
  {
    id: 'branch-added-covered',
    sent: '-',
    received: 'INFO',
    summary: 'branch added whose values an old branch already allowed',
  },
  both('discriminator-property-changed', 'ERR', 'discriminator `propertyName` changed'),
  narrowing('discriminator-value-removed', 'discriminator mapping value removed (or renamed)'),
  widening('discriminator-value-added', 'discriminator mapping value added (or renamed)'),
  both('discriminator-mapping-changed', 'ERR', 'a discriminator value now maps to another schema'),
  // Parameters.
  both('parameter-moved', 'ERR', 'parameter moved (e.g. query → header)'),
  {
    id: 'parameter-removed',
    sent: 'WARN',
    received: 'ERR',
    summary: 'parameter removed (senders may be rejected; receivers lose a required one)',
  },
  {
    id: 'optional-parameter-removed',
    sent: '-',
    received: 'WARN',
    summary: 'optional parameter no longer sent',
  },
  narrowing('parameter-became-required', 'parameter became required'),
  widening('parameter-became-optional', 'parameter became optional'),
  { id: 'parameter-added-required', sent: 'ERR', received: '-', summary: 'new required parameter' },
  both('parameter-added', 'INFO', 'new optional parameter'),
  // Bodies and media types.
  both('body-removed', 'ERR', 'request body / payload removed'),
  both('body-added', 'INFO', 'optional body added'),
  narrowing('body-became-required', 'body became required'),
  widening('body-became-optional', 'body became optional'),
  both(
    'media-type-removed',
    'ERR',
    'media type removed (senders refused; receivers asking for it get another format or 406)',
  ),
  both('media-type-added', 'INFO', 'media type added'),
  {
    id: 'media-type-specialised',
    sent: '-',
    received: 'INFO',
    summary:
      '`application/json` now sent as `application/problem+json` (or only its parameters changed)',
  },
  // Responses.
  {
    id: 'status-removed',
    sent: 'ERR',
    received: 'INFO',
    summary: 'status removed (receivers: an error status, one less case)',
  },
  {
    id: 'success-status-removed',
    sent: '-',
    received: 'ERR',
    summary:
      'a 2xx status removed (e.g. 201 → 200): clients checking for it see the new one as unexpected',
  },
  {
    id: 'status-added',
    sent: 'INFO',
    received: 'WARN',
    summary: 'status added: receivers may meet a status they do not handle',
  },
  { id: 'header-removed', sent: '-', received: 'ERR', summary: 'required response header removed' },
  {
    id: 'optional-header-removed',
    sent: '-',
    received: 'WARN',
    summary: 'optional response header removed',
  },
  {
    id: 'header-became-optional',
    sent: '-',
    received: 'ERR',
    summary: 'response header became optional',
  },
  {
    id: 'header-became-required',
    sent: '-',
    received: 'INFO',
    summary: 'response header became required',
  },
  { id: 'header-added', sent: '-', received: 'INFO', summary: 'response header added' },
  // Whole operations, security, our extensions.
  ...(
    [
      [
        'path-removed',
        'ERR',
        'path with operations removed (some not deprecated, or with no `x-sunset` date)',
      ],
      [
        'path-removed-before-sunset',
        'ERR',
        'path removed, every operation deprecated with an `x-sunset` date, some still ahead',
      ],
      [
        'path-removed-after-sunset',
        'INFO',
        'path removed after the `x-sunset` date of every operation on it, as announced',
      ],
      [
        'path-without-operations-removed',
        'INFO',
        'path with no operations removed: it was never callable',
      ],
      ['path-added', 'INFO', 'path added'],
      [
        'operation-removed',
        'ERR',
        'operation removed (not deprecated, or deprecated with no `x-sunset` date)',
      ],
      [
        'operation-removed-before-sunset',
        'ERR',
        'deprecated operation removed before its `x-sunset` date',
      ],
      [
        'operation-removed-after-sunset',
        'INFO',
        'deprecated operation removed after its `x-sunset` date, as announced',
      ],
      [
        'operation-deprecated',
        'INFO',
        'operation marked `deprecated` (with its `x-sunset`, if any)',
      ],
      ['operation-undeprecated', 'INFO', 'operation no longer `deprecated`'],
      ['operation-added', 'INFO', 'operation added'],
      ['webhook-removed', 'ERR', 'webhook removed'],
      [
        'webhook-removed-before-sunset',
        'ERR',
        'webhook removed, every operation deprecated with an `x-sunset` date, some still ahead',
      ],
      [
        'webhook-removed-after-sunset',
        'INFO',
        'webhook removed after the `x-sunset` date of every operation on it',
      ],
      ['webhook-without-operations-removed', 'INFO', 'webhook with no operations removed'],
      ['webhook-added', 'INFO', 'webhook added'],
      ['webhook-operation-removed', 'ERR', 'webhook operation removed'],
      [
        'webhook-operation-removed-before-sunset',
        'ERR',
        'deprecated webhook operation removed before its `x-sunset` date',
      ],
      [
        'webhook-operation-removed-after-sunset',
        'INFO',
        'deprecated webhook operation removed after its `x-sunset` date',
      ],
      ['webhook-operation-deprecated', 'INFO', 'webhook operation marked `deprecated`'],
      ['webhook-operation-undeprecated', 'INFO', 'webhook operation no longer `deprecated`'],
      ['webhook-operation-added', 'INFO', 'webhook operation added'],
      ['security-added', 'ERR', 'authentication now required where it was not'],
      ['security-removed', 'INFO', 'authentication no longer required'],
      [
        'security-requirement-tightened',
        'ERR',
        'a credential that worked no longer satisfies any alternative (scheme or scope added)',
      ],
      ['security-requirement-loosened', 'INFO', 'security requirement loosened'],
      ['x-scope-raised', 'ERR', '`x-scope` read → write: read-only keys are refused'],
      ['x-scope-lowered', 'INFO', '`x-scope` write → read'],
      ['x-scope-changed', 'WARN', '`x-scope` changed to or from a value we cannot rank'],
      // The net under every rule above (every-change.ts): no difference goes unreported.
      ['description-changed', 'INFO', 'a `description` changed, was added or removed'],
      [
        'annotation-changed',
        'INFO',
        'an annotation changed: `summary`, `title`, `example(s)`, `externalDocs`, `operationId`, `tags`, an `x-` extension',
      ],
      [
        'other-change',
        'INFO',
        'any other difference no rule above rates (`info`, `servers`, a renamed path variable, a keyword diff-spec does not judge): listed so that no change goes unseen',
      ],
    ] as const
  ).map(([id, level, summary]): RuleFamily => ({ ...both(id, level, summary), prefixed: false })),
];

/**
 * Where each rule departs from oasdiff 1.15 (the reference: its checker corpus is held to in
 * test/diff/corpus, every direction reviewed), and why. A family not listed rates as oasdiff does,
 * or oasdiff has no such rule (our `x-` extensions, sunsets).
 */
export const VS_OASDIFF: Readonly<Record<string, string>> = {
  'type-changed':
    'oasdiff exempts XML bodies from type checks and misses an array query parameter becoming a scalar; both break clients here. A `$ref` cycle with no schema at its end is a type change in both',
  'format-added':
    'oasdiff: ERR in both directions (any format change but a generalisation). Here INFO where the client receives: what arrives is a subset of what did. `--level format-added=ERR` rates as oasdiff',
  'format-removed':
    'oasdiff: ERR in both directions. Here INFO where the client sends: more is accepted than before. `--level format-removed=ERR` rates as oasdiff',
  'format-narrowed': 'oasdiff reports nothing where the client receives; here INFO',
  'enum-value-added':
    'oasdiff: WARN in responses (`response-property-enum-value-added`). Here ERR: a client that switches over the values meets one it does not know (`--level enum-value-added=WARN`)',
  'length-tightened':
    'set where there was none (`maxLength` on a request value): oasdiff WARN, here ERR — longer values accepted before are refused. oasdiff also skips path-level parameters',
  'range-tightened':
    'set where there was none (`maximum`, exclusive bounds): oasdiff WARN, here ERR — values accepted before are refused',
  'items-tightened': 'oasdiff skips path-level parameters (`maxItems` on one); here ERR',
  'default-changed':
    'oasdiff: a request body default INFO, a path parameter default ERR. Here ERR for bodies and query/header parameters; a path parameter is always sent, so its default never applies (reported INFO `other-change`)',
  'required-property-added':
    'oasdiff exempts a new required property that has a default; a validator honouring `required` still refuses bodies without it',
  'composition-wrapped':
    'oasdiff reads `oneOf: [null, X]` (a nullable wrap) as a type change or as enum values removed; here the branches are compared with the old schema, a widening',
  'branch-removed-covered':
    'oasdiff rates a removed `oneOf`/`anyOf` member ERR by its name; here by structure — a member identical to a remaining one takes nothing away',
  'branch-added-covered': 'as `branch-removed-covered`: judged by structure, not names',
  'not-changed': 'oasdiff does not judge changes inside `not`',
  'not-added': 'oasdiff does not judge `not`',
  'discriminator-value-removed':
    'oasdiff rates discriminator mapping changes INFO; a request value that can no longer be mapped is refused',
  'discriminator-value-added':
    'oasdiff rates discriminator mapping changes INFO; a response value a client cannot map breaks it',
  'property-removed':
    'oasdiff does not walk `additionalProperties`: a required property of map values removed goes unseen there',
  'body-became-required':
    'oasdiff treats webhook payloads as requests to the service: every `webhook-` rule is rated the other way round there',
  'enum-value-removed':
    'oasdiff does not look inside the properties of a deepObject query parameter; an enum value removed there refuses clients sending it',
  'security-added': 'oasdiff: INFO. Every anonymous call now gets 401',
  'security-requirement-tightened':
    'oasdiff: INFO. A token that satisfied the requirement no longer does',
  'description-changed':
    'oasdiff `breaking` reports none of these and `changelog` only some; here every difference is reported, at INFO',
  'annotation-changed': 'as `description-changed`',
  'other-change': 'as `description-changed`',
};

/** Every rule id with its default level. */
export const RULES: ReadonlyMap<string, Level> = (() => {
  const m = new Map<string, Level>();
  for (const f of RULE_FAMILIES) {
    if (f.prefixed === false) {
      m.set(f.id, f.sent as Level);
      continue;
    }
    for (const { prefix, way } of PREFIXES) {
      const level = f[way];
      if (level !== '-') m.set(`${prefix}-${f.id}`, level);
    }
  }
  return m;
})();

/** The summary of rule `id` (prefixed or not), as `docs/usage.md` lists it. */
export function ruleSummary(id: string): string | undefined {
  return RULE_FAMILIES.find((f) =>
    f.prefixed === false ? f.id === id : PREFIXES.some((p) => `${p.prefix}-${f.id}` === id),
  )?.summary;
}

/**
 * Parses `--level rule=LEVEL` overrides (repeatable, or comma-separated). A family id without
 * its prefix (`enum-value-added=WARN`) moves that rule everywhere it is raised.
 */
export function parseLevelOverrides(specs: readonly string[]): Record<string, Level> {
  const out: Record<string, Level> = {};
  for (const spec of specs
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9-]+)=([A-Za-z]+)$/.exec(spec);
    if (!m) throw new Error(`--level expects RULE=ERR|WARN|INFO, got '${spec}'`);
    const [, rule, raw] = m as unknown as [string, string, string];
    const level = raw.toUpperCase();
    if (!LEVELS.includes(level as Level))
      throw new Error(`--level ${rule}: level must be ERR, WARN or INFO, got '${raw}'`);
    const ids = RULES.has(rule)
      ? [rule]
      : PREFIXES.map((p) => `${p.prefix}-${rule}`).filter((id) => RULES.has(id));
    if (ids.length === 0)
      throw new Error(`--level: unknown rule '${rule}' (the rules are listed in docs/usage.md)`);
    for (const id of ids) out[id] = level as Level;
  }
  return out;
}

/** The ERR/WARN/INFO tables of `docs/usage.md`, generated from the families above. */
export function rulesTable(): string {
  const esc = (t: string) => t.replace(/\|/g, '\\|');
  const prefixed = RULE_FAMILIES.filter((f) => f.prefixed !== false).map((f) => {
    const cols = PREFIXES.map((p) => (f[p.way] === '-' ? '' : f[p.way])).join(' | ');
    return `| \`…-${f.id}\` | ${cols} | ${esc(f.summary)} |`;
  });
  const whole = RULE_FAMILIES.filter((f) => f.prefixed === false).map(
    (f) => `| \`${f.id}\` | ${f.sent} | ${esc(f.summary)} |`,
  );
  const departs = RULE_FAMILIES.filter((f) => VS_OASDIFF[f.id]).map(
    (f) => `| \`${f.prefixed === false ? f.id : `…-${f.id}`}\` | ${esc(VS_OASDIFF[f.id]!)} |`,
  );
  return [
    '| Rule | `request-` | `response-` | `webhook-` | `webhook-response-` | Meaning |',
    '|---|---|---|---|---|---|',
    ...prefixed,
    '',
    '| Rule | Level | Meaning |',
    '|---|---|---|',
    ...whole,
    '',
    'Where a rule departs from oasdiff 1.15 (the reference; `test/diff/corpus` holds diff-spec to',
    "oasdiff's checker corpus, every direction reviewed) and why; the others rate as oasdiff does:",
    '',
    '| Rule | Departure from oasdiff |',
    '|---|---|',
    ...departs,
  ].join('\n');
}
