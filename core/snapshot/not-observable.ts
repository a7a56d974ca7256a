/**
 * A gap value a run looked for and could not see, because of the data it met rather than the
 * deployment's behaviour: the default page size shows only when the first page is full, and a
 * fresh workspace (the embedded deployment, whose other tests create tickets in any order) may
 * hold fewer tickets than a page. Recorded as `{ notObservable: why }` so the compare leaves it
 * out with a `data` note (compat/compare/compare-gaps.ts) instead of reading "the page size was
 * 25, is not there" as a change.
 */
export interface NotObservable {
  notObservable: string;
}

export const notObservable = (why: string): NotObservable => ({ notObservable: why });

export const isNotObservable = (v: unknown): v is NotObservable =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  typeof (v as { notObservable?: unknown }).notObservable === 'string';
