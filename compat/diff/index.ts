export { diffSpecs } from './diff-specs.ts';
export { countByLevel, type Format, failing } from '../findings/index.ts';
export { type ReportMeta, renderDiff as render } from '../findings/views.ts';
export { loadSpec, loadSpecText, parseSpec } from './load-spec.ts';
export { parseLevelOverrides, RULE_FAMILIES, RULES, rulesTable } from './rules.ts';
export type { AssumedMark, Finding, Level, SpecDoc } from './types.ts';
export { LEVEL_RANK } from './types.ts';
