import type { Level } from '../../core/level.ts';

/** The nearest `x-provenance: assumed` mark above (or on) the element a finding touches. */
export interface AssumedMark {
  /** JSON pointer (RFC 6901) of the node carrying the mark, in the version it was found in. */
  pointer: string;
  /** Which version carried the mark. */
  version: 'old' | 'new';
  /** The `x-gap` next to the mark (e.g. `U5`), when there is one. */
  gap?: string;
}

/** One change between two spec versions, rated for clients. */
export interface Finding {
  /** Stable rule id, e.g. `response-property-removed`. Safe to match on in CI. */
  rule: string;
  level: Level;
  message: string;
  /** RFC 6901 pointer into the old document (absent when the element is new). */
  old?: string;
  /** RFC 6901 pointer into the new document (absent when the element was removed). */
  new?: string;
  /** Operations / webhooks that reach the changed element, e.g. `GET /v1/tickets/{}`. */
  where: string[];
  /** Set when the changed element is, or sits under, an `x-provenance: assumed` element. */
  assumed?: AssumedMark;
}

export type SpecDoc = Record<string, unknown>;
