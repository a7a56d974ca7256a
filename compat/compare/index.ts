export { compareWithBaseline, REFERENCE_BASELINE } from './baseline.ts';
export { normalizeVolatile } from './canonical.ts';
export { compareSnapshots } from './compare-snapshots.ts';
export {
  type CompareMeta,
  countByLevel,
  type Format,
  failing,
  render,
  toMarkdown,
} from './format.ts';

export { asSnapshot, loadSnapshot } from './load-snapshot.ts';
export { RULES, type RuleId } from './rules.ts';
export type { CompareFinding, CompareLocation, CompareOptions, Level } from './types.ts';
export { LEVEL_RANK } from './types.ts';
