/** `GET /v1/tickets › 200 › /data/*\/id`: where a compare finding sits, one line a person can follow into the snapshot. */
import type { CompareLocation } from './types.ts';

export function whereText(p: CompareLocation): string {
  return [
    p.operation,
    p.status,
    p.header && `header ${p.header}`,
    p.contentType && `content type ${p.contentType}`,
    p.field && `field ${p.field}`,
    p.gap,
    p.probe && `“${p.probe}”`,
    p.plan && `plan ${p.plan}`,
    p.property,
  ]
    .filter(Boolean)
    .join(' › ');
}
