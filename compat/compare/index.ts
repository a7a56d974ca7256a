export { REFERENCE_BASELINE } from './baseline.ts';
export { compareSnapshots } from './compare-snapshots.ts';
export { renderCompare as render } from '../findings/views.ts';
export { loadSnapshot } from './load-snapshot.ts';
export { RULES } from './rules.ts';
export type { CompareFinding } from './types.ts';
