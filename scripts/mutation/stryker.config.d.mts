/** The types of stryker.config.mjs, for scripts/mutation/run.ts and scope.ts. */
declare const config: import('@stryker-mutator/api/core').PartialStrykerOptions;
export default config;
export declare const notMutated: Readonly<Record<string, string>>;
