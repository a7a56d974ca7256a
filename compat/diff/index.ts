export { diffSpecs } from './diff-specs.ts';
export { renderDiff as render } from '../findings/views.ts';
export { loadSpec } from './load-spec.ts';
export { parseLevelOverrides, RULES } from './rules.ts';
export type { Finding, SpecDoc } from './types.ts';
