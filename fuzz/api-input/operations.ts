/**
 * The operations the API input fuzz sends input to, read from the spec (never copied by hand):
 * the write operations' bodies — method and path, the request schema and the media types the
 * request body lists — and the list's query parameters, each with its schema; and the spec's own
 * operation (core/spec/operations.ts) that the registered checks judge the answer by — statuses,
 * response schemas and all.
 */
import type { JsonSchema } from '../arbitraries/schema-arb.ts';
import type { QueryParam } from '../arbitraries/query-case-arb.ts';
import { loadSpec } from '../../core/spec/load-spec.ts';
import { type OperationSpec, operations, refName } from '../../core/spec/operations.ts';
import { componentSchema } from './spec-schemas.ts';

export type ApiInputOperation = 'createTicket' | 'updateTicket' | 'addMessage' | 'listTickets';

export const API_INPUT_OPERATIONS: readonly ApiInputOperation[] = [
  'createTicket',
  'updateTicket',
  'addMessage',
  'listTickets',
];

export interface InputOperation {
  /** The request body's component schema (e.g. 'TicketCreate'), or `query` for a list. */
  schema: string;
  method: 'POST' | 'PATCH' | 'GET';
  /** The media type sent by default (the first the spec lists); `alsoAccepted` the others. */
  mediaType: string;
  alsoAccepted: string[];
  /** A list's query parameters, schemas resolved (present exactly when the input is a query). */
  params?: QueryParam[];
  /** The spec's operation: what the checks hold an answer to (statuses, schemas). */
  spec: OperationSpec;
}

/** Follows a `#/components/…` reference of the spec document. */
function specRef(node: any): any {
  let n = node;
  for (let i = 0; i < 10 && typeof n?.$ref === 'string' && n.$ref.startsWith('#/'); i++)
    n = n.$ref
      .slice(2)
      .split('/')
      .reduce((acc: any, k: string) => acc?.[k], loadSpec());
  return n;
}

/** The query parameters of an operation, each schema read from the spec's standalone schemas. */
function queryParams(raw: any): QueryParam[] {
  return ((raw?.parameters ?? []) as unknown[])
    .map(specRef)
    .filter((p: any) => p?.in === 'query' && typeof p.name === 'string')
    .map((p: any) => {
      const name = refName(p.schema);
      const schema: JsonSchema = name ? componentSchema(name) : (p.schema ?? {});
      return { name: p.name as string, schema };
    });
}

/** The operation `operationId` of the spec, with its request body; throws if the spec lacks it. */
function fromSpec(operationId: ApiInputOperation): InputOperation {
  const spec = operations().find((o) => o.operationId === operationId);
  if (!spec) throw new Error(`api input fuzz: the spec has no operation ${operationId}`);
  const raw = loadSpec().paths?.[spec.template]?.[spec.method.toLowerCase()];
  if (spec.method === 'GET') {
    const params = queryParams(raw);
    if (params.length === 0)
      throw new Error(`api input fuzz: ${operationId} has no query parameters in the spec`);
    return {
      schema: `query (${params.map((p) => p.name).join(', ')})`,
      method: 'GET',
      mediaType: '',
      alsoAccepted: [],
      params,
      spec,
    };
  }
  const content = Object.entries(
    (raw?.requestBody?.content ?? {}) as Record<string, { schema?: unknown }>,
  );
  const schema = refName(content[0]?.[1]?.schema);
  if (!schema || (spec.method !== 'POST' && spec.method !== 'PATCH'))
    throw new Error(`api input fuzz: ${operationId} has no request body schema in the spec`);
  const [mediaType, ...alsoAccepted] = content.map(([type]) => type);
  return { schema, method: spec.method, mediaType: mediaType!, alsoAccepted, spec };
}

let cached: Record<ApiInputOperation, InputOperation> | undefined;

/** Each fuzzed operation as the spec gives it (read once). */
export function inputOperation(op: ApiInputOperation): InputOperation {
  cached ??= Object.fromEntries(API_INPUT_OPERATIONS.map((o) => [o, fromSpec(o)])) as Record<
    ApiInputOperation,
    InputOperation
  >;
  return cached[op];
}

/** True when `contentType` names a media type the operation's spec lists, UTF-8 or no charset. */
export function acceptsMediaType(op: InputOperation, contentType: string | null): boolean {
  if (contentType === null) return false;
  const [type = '', ...params] = contentType.toLowerCase().split(';');
  const charset = params.map((p) => p.trim()).find((p) => p.startsWith('charset='));
  if (charset !== undefined && charset !== 'charset=utf-8') return false;
  return [op.mediaType, ...op.alsoAccepted].includes(type.trim());
}
