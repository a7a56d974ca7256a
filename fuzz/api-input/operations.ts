/**
 * The write operations the API input fuzz sends bodies to: for each, the request schema, method
 * and media types the spec lists, and what a success is.
 */
export type ApiInputOperation = 'createTicket' | 'updateTicket' | 'addMessage';

export const API_INPUT_OPERATIONS: readonly ApiInputOperation[] = [
  'createTicket',
  'updateTicket',
  'addMessage',
];

export interface OperationSpec {
  schema: string;
  method: 'POST' | 'PATCH';
  /** The media type sent by default; `alsoAccepted` lists the others the spec allows. */
  mediaType: string;
  alsoAccepted?: string[];
  success: 'Ticket' | 'Message';
  successStatuses: number[];
}

export const OPERATIONS: Record<ApiInputOperation, OperationSpec> = {
  createTicket: {
    schema: 'TicketCreate',
    method: 'POST',
    mediaType: 'application/json',
    success: 'Ticket',
    successStatuses: [200, 201],
  },
  updateTicket: {
    schema: 'TicketUpdate',
    method: 'PATCH',
    mediaType: 'application/merge-patch+json',
    alsoAccepted: ['application/json'],
    success: 'Ticket',
    successStatuses: [200],
  },
  addMessage: {
    schema: 'MessageCreate',
    method: 'POST',
    mediaType: 'application/json',
    success: 'Message',
    successStatuses: [200, 201],
  },
};

/** True when `contentType` names a media type the operation's spec lists, UTF-8 or no charset. */
export function acceptsMediaType(spec: OperationSpec, contentType: string | null): boolean {
  if (contentType === null) return false;
  const [type = '', ...params] = contentType.toLowerCase().split(';');
  const charset = params.map((p) => p.trim()).find((p) => p.startsWith('charset='));
  if (charset !== undefined && charset !== 'charset=utf-8') return false;
  return [spec.mediaType, ...(spec.alsoAccepted ?? [])].includes(type.trim());
}
