export {
  countByLevel,
  failing,
  LEVEL_RANK,
  LEVELS,
  type Level,
  type Leveled,
} from '../../core/level.ts';
export {
  cell,
  code,
  type FindingsView,
  type Format,
  findingsJson,
  findingsJunit,
  findingsMarkdown,
  renderFindings,
} from './report.ts';
