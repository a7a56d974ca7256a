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

let cached: OperationSpec[] | undefined;

export function operations(doc: OpenApiDoc = loadSpec()): OperationSpec[] {
  if (cached && doc === loadSpec()) return cached;
  const out: OperationSpec[] = [];
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
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        template,
        regex: new RegExp(`^${pattern}$`),
        scope: op['x-scope'] === 'write' ? 'write' : 'read',
        provenance: (op['x-provenance'] ?? 'documented') as Provenance,
        gap: op['x-gap'],
        responses,
      });
    }
  }
  if (doc === loadSpec()) cached = out;
  return out;
}

/** The operation a request hits, by method and path (query ignored), or undefined. */
export function matchOperation(method: string, url: string): OperationSpec | undefined {
  const path = new URL(url, 'http://x').pathname;
  return operations().find((o) => o.method === method.toUpperCase() && o.regex.test(path));
}
