/**
 * One-off: re-keys docs/mutation/triage.json from `file:line:col-line:col Mutator → replacement`
 * (the old keys) to the content keys of keys.ts, matching each entry to its mutant in the last
 * recorded run (docs/mutation/stryker-incremental.json). Each entry keeps its verdict and reason.
 */
import { mutantKeys } from './keys.ts';
import { type MutantResult, readReport, readTriage, writeTriage } from './results.ts';

function oldKey(file: string, m: MutantResult): string {
  const r = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80);
  const { start, end } = m.location;
  return `${file}:${start.line}:${start.column}-${end.line}:${end.column} ${m.mutatorName} → ${r}`;
}

const report = readReport();
const triage = readTriage();
const byOld = new Map<string, string>();
for (const [file, f] of Object.entries(report.files)) {
  const keys = mutantKeys(file, f.source, f.mutants);
  f.mutants.forEach((m, i) => {
    byOld.set(oldKey(file, m), keys[i]!);
  });
}
const survivors: typeof triage.survivors = {};
const unmatched: string[] = [];
for (const [old, t] of Object.entries(triage.survivors)) {
  const key = byOld.get(old);
  if (!key) unmatched.push(old);
  else if (survivors[key]) throw new Error(`two entries for ${key}`);
  else survivors[key] = t;
}
if (unmatched.length) throw new Error(`no mutant for: ${unmatched.join('\n')}`);
writeTriage({ ...triage, survivors });
console.log(`re-keyed ${Object.keys(survivors).length} entries`);
