/** The registry of every check of the harness, built once. */
import { ALL_CHECKS } from './all.ts';
import { CheckRegistry } from './registry.ts';

export const checks = new CheckRegistry().register(...ALL_CHECKS);
