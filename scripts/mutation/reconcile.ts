/** The triage kept in step with the results of a file just measured (run.ts). */
import { withoutFile } from './keys.ts';
import { isKilled, isSurvivor, keyed, type Report, survivors, type TriageFile } from './results.ts';

/**
 * The triage after `file` was measured: each of its entries whose mutant survived stays; one
 * whose mutant was killed (or is no longer run) goes; one whose mutant is gone moves to
 * `retriage`. A new survivor whose key, file aside, is an entry left without its mutant in
 * another file takes that entry (its function moved between files).
 */
export function reconcile(
  t: TriageFile,
  report: Report,
  file: string,
  log: (line: string) => void,
): TriageFile {
  const all = keyed(report);
  const present = new Set(all.map((k) => k.key));
  const alive = new Set(survivors(report).map((k) => k.key));
  const survivorsOut = { ...t.survivors };
  const retriage = { ...(t.retriage ?? {}) };
  // Entries without their mutant, of other files: where a function that moved here came from.
  const orphans = new Map<string, string>();
  for (const k of [...Object.keys(survivorsOut), ...Object.keys(retriage)])
    if (!present.has(k) && !k.startsWith(`${file} · `)) orphans.set(withoutFile(k), k);
  for (const s of all.filter((k) => k.file === file && isSurvivor(k.mutant)))
    if (!survivorsOut[s.key]) {
      const moved = orphans.get(withoutFile(s.key));
      if (moved) {
        log(`triage follows ${moved} to ${s.file}`);
        survivorsOut[s.key] = survivorsOut[moved] ?? retriage[moved]!;
        delete survivorsOut[moved];
        delete retriage[moved];
        orphans.delete(withoutFile(s.key));
      }
    }
  for (const [k, v] of Object.entries(survivorsOut)) {
    if (!k.startsWith(`${file} · `) || alive.has(k)) continue;
    delete survivorsOut[k];
    if (present.has(k)) {
      const m = all.find((x) => x.key === k)!.mutant;
      log(`${isKilled(m) ? 'now killed' : m.status}, triage dropped (${v.verdict}): ${k}`);
    } else {
      log(`no longer a mutant of this code, to triage again (${v.verdict}): ${k}`);
      retriage[k] = v;
    }
  }
  return {
    ...t,
    measured: new Date().toISOString().slice(0, 10),
    survivors: survivorsOut,
    retriage,
  };
}
