export { countByLevel, failing } from '../../core/level.ts';
export { type FindingsView, findingsJunit } from './report.ts';
