/** The types of stryker.config.mjs, for scripts/mutation/run.ts. */
declare const config: import('@stryker-mutator/api/core').PartialStrykerOptions;
export default config;
