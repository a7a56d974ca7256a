/**
 * The operations of the spec as data: method, path template, scope, provenance, and per status
 * the media type, schema and headers. Checks match every recorded exchange to its operation here.
 */
import { type OpenApiDoc, loadSpec } from './load-spec.ts';

export type Provenance = 'documented' | 'assumed';

export interface ResponseSpec {
  status: string;
  contentType?: string;
  /** Component schema name of the body (e.g. 'Ticket'), when it is a $ref. */
  schema?: string;
  /** Header names (lower case) declared as required. */
  requiredHeaders: string[];
  provenance: Provenance;
}

export interface OperationSpec {
  operationId: string;
  method: string;
  template: string;
  regex: RegExp;
  scope: 'read' | 'write';
  provenance: Provenance;
  gap?: string;
  responses: Map<string, ResponseSpec>;
  /** Names of the path parameters, in the template's order (`ticket_id`, …). */
  pathParams: string[];
  /** A collection read: a GET whose 200 body carries a `data` array (the rule matrix's lists). */
  list: boolean;
  /** Query parameters that select by a value of an enum (a list's filters: status, priority). */
  filters: Array<{ name: string; values: string[] }>;
  /** A list's largest page: its `limit` query parameter's maximum, when the spec gives one. */
  pageMax?: number;
  /** A list's smallest page: its `limit` query parameter's minimum, when the spec gives one. */
  pageMin?: number;
  /**
   * The lists whose objects a read's 200 body counts: a property named as a list's last path
   * segment holding an integer `total` (GET /v1/reports/summary's `tickets.total` counts
   * /v1/tickets). Read from the schema, so a count added to the spec is found without code.
   */
  counts: Array<{ collection: string; path: string[] }>;
  /** Component schema of the JSON request body, when it is a $ref. */
  requestSchema?: string;
}

/** A webhook event of the spec (`webhooks:`): what the service sends, not an API operation. */
export interface WebhookSpec {
  event: string;
  operationId?: string;
  provenance: Provenance;
  gap?: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function deref(doc: OpenApiDoc, node: any): any {
  let n = node;
  for (let i = 0; i < 10 && n && typeof n.$ref === 'string'; i++) {
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce((acc: any, k: string) => acc?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return n;
}

/** The component name a `$ref` node points at (its last segment), if it is one. */
export function refName(node: any): string | undefined {
  const ref = node?.$ref;
  return typeof ref === 'string' ? ref.split('/').pop() : undefined;
}

/** The component schema a 200 answer's body is, dereferenced (for `list`). */
function okSchema(doc: OpenApiDoc, op: any): any {
  const ok = deref(doc, op.responses?.['200']);
  const media = Object.values(ok?.content ?? {})[0] as { schema?: unknown } | undefined;
  return deref(doc, media?.schema);
}

/** Query parameters (of the path item and the operation) whose schema is an enum. */
function filtersOf(doc: OpenApiDoc, item: any, op: any): OperationSpec['filters'] {
  const out: OperationSpec['filters'] = [];
  for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
    const p = deref(doc, raw);
    const values = deref(doc, p?.schema)?.enum;
    if (p?.in === 'query' && Array.isArray(values) && values.length > 0)
      out.push({ name: String(p.name), values: values.map(String) });
  }
  return out;
}

/** The component schema of a JSON request body (application/json first, else the first type). */
function requestSchemaOf(doc: OpenApiDoc, op: any): string | undefined {
  const content = deref(doc, op.requestBody)?.content ?? {};
  const media = content['application/json'] ?? Object.values(content)[0];
  return refName((media as { schema?: unknown } | undefined)?.schema);
}

/** The `limit` query parameter's maximum or minimum (a list's largest or smallest page), if given. */
function pageBoundOf(
  doc: OpenApiDoc,
  item: any,
  op: any,
  bound: 'maximum' | 'minimum',
): number | undefined {
  for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
    const p = deref(doc, raw);
    const value = deref(doc, p?.schema)?.[bound];
    if (p?.in === 'query' && p.name === 'limit' && Number.isInteger(value)) return value;
  }
  return undefined;
}

/** The properties of a 200 body that hold an integer `total`: what `counts` resolves to lists. */
function totalsOf(doc: OpenApiDoc, body: any): string[] {
  return Object.entries(body?.properties ?? {})
    .filter(([, p]) => deref(doc, deref(doc, p)?.properties?.total)?.type === 'integer')
    .map(([name]) => name);
}

let cached: OperationSpec[] | undefined;

export function operations(doc: OpenApiDoc = loadSpec()): OperationSpec[] {
  if (cached && doc === loadSpec()) return cached;
  const out: OperationSpec[] = [];
  const totals = new Map<OperationSpec, string[]>();
  for (const [template, item] of Object.entries(doc.paths ?? {}) as Array<[string, any]>) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const responses = new Map<string, ResponseSpec>();
      for (const [status, raw] of Object.entries(op.responses ?? {})) {
        const r = deref(doc, raw);
        const [contentType, media] = Object.entries(r?.content ?? {})[0] ?? [];
        const requiredHeaders = Object.entries(r?.headers ?? {})
          .filter(([, h]) => deref(doc, h)?.required)
          .map(([name]) => name.toLowerCase());
        responses.set(status, {
          status,
          contentType,
          schema: refName((media as any)?.schema),
          requiredHeaders,
          provenance: (r?.['x-provenance'] ?? op['x-provenance'] ?? 'documented') as Provenance,
        });
      }
      const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      const body = method === 'get' ? okSchema(doc, op) : undefined;
      const pageMax = pageBoundOf(doc, item, op, 'maximum');
      const pageMin = pageBoundOf(doc, item, op, 'minimum');
      const spec: OperationSpec = {
        operationId: op.operationId,
        method: method.toUpperCase(),
        template,
        regex: new RegExp(`^${pattern}$`),
        scope: op['x-scope'] === 'write' ? 'write' : 'read',
        provenance: (op['x-provenance'] ?? 'documented') as Provenance,
        gap: op['x-gap'],
        responses,
        pathParams: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        list: body?.properties?.data?.type === 'array',
        filters: filtersOf(doc, item, op),
        ...(pageMax !== undefined ? { pageMax } : {}),
        ...(pageMin !== undefined ? { pageMin } : {}),
        counts: [],
        requestSchema: requestSchemaOf(doc, op),
      };
      out.push(spec);
      if (body && !spec.list) totals.set(spec, totalsOf(doc, body));
    }
  }
  // A count names its list by the list's last path segment (`tickets` → GET /v1/tickets).
  for (const [spec, names] of totals)
    for (const name of names) {
      const list = out.find((o) => o.list && o.template.split('/').pop() === name);
      if (list) spec.counts.push({ collection: list.template, path: [name, 'total'] });
    }
  if (doc === loadSpec()) cached = out;
  return out;
}

/** The operation a request hits, by method and path (query ignored), or undefined. */
export function matchOperation(method: string, url: string): OperationSpec | undefined {
  const path = new URL(url, 'http://x').pathname;
  return operations().find((o) => o.method === method.toUpperCase() && o.regex.test(path));
}

/** The webhook events of the spec, in its order (the rule matrix's webhook columns). */
export function webhookEvents(doc: OpenApiDoc = loadSpec()): WebhookSpec[] {
  return Object.entries(doc.webhooks ?? {}).map(([event, item]: [string, any]) => {
    const op = item?.post ?? {};
    return {
      event,
      operationId: op.operationId,
      provenance: (op['x-provenance'] ?? 'documented') as Provenance,
      gap: op['x-gap'],
    };
  });
}
