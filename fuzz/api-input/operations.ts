/**
 * The write operations the API input fuzz sends bodies to, read from the spec (never copied by
 * hand): for each, its method and path, the request schema and the media types its request body
 * lists, and the spec's own operation (core/spec/operations.ts) that the registered checks judge
 * the answer by — statuses, response schemas and all.
 */
import { loadSpec } from '../../core/spec/load-spec.ts';
import { type OperationSpec, operations, refName } from '../../core/spec/operations.ts';

export type ApiInputOperation = 'createTicket' | 'updateTicket' | 'addMessage';

export const API_INPUT_OPERATIONS: readonly ApiInputOperation[] = [
  'createTicket',
  'updateTicket',
  'addMessage',
];

export interface InputOperation {
  /** The request body's component schema (e.g. 'TicketCreate'). */
  schema: string;
  method: 'POST' | 'PATCH';
  /** The media type sent by default (the first the spec lists); `alsoAccepted` the others. */
  mediaType: string;
  alsoAccepted: string[];
  /** The spec's operation: what the checks hold an answer to (statuses, schemas). */
  spec: OperationSpec;
}

/** The operation `operationId` of the spec, with its request body; throws if the spec lacks it. */
function fromSpec(operationId: ApiInputOperation): InputOperation {
  const spec = operations().find((o) => o.operationId === operationId);
  if (!spec) throw new Error(`api input fuzz: the spec has no operation ${operationId}`);
  const raw = loadSpec().paths?.[spec.template]?.[spec.method.toLowerCase()];
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
