export * from './bucket-model.ts';
export * from './classify-limiter.ts';
export * from './estimators.ts';
export * from './headers.ts';
export * from './k6-summary.ts';
export * from './metrics.ts';
export * from './plans.ts';
export * from './reset-unit.ts';
export * from './result.ts';
// Types only: an empty module at run time, and importing one hangs k6 v1.3.0's init context.
export type * from './sample.ts';
export * from './schedule.ts';
export * from './stats.ts';
export * from './verdicts.ts';
export * from './aggregate-samples.ts';
export * from './merge-segments.ts';
export * from './live-progress.ts';
