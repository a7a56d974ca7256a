export { compareWithBaseline, REFERENCE_BASELINE } from './baseline.ts';
export { normalizeVolatile } from './canonical.ts';
export { compareSnapshots } from './compare-snapshots.ts';
export { countByLevel, type Format, failing } from '../findings/index.ts';
export { type CompareMeta, renderCompare as render, toMarkdown } from '../findings/views.ts';
export { asSnapshot, loadSnapshot } from './load-snapshot.ts';
export { RULES, type RuleId } from './rules.ts';
export type { CompareFinding, CompareLocation, CompareOptions, Level } from './types.ts';
export { LEVEL_RANK } from './types.ts';
