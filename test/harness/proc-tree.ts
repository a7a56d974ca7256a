/**
 * What a process left behind, read from /proc (Linux): a process's descendants with their process
 * groups, recorded before it is killed, and which of them — or of anything else in those groups —
 * is still running later. A process is identified by pid and start time, so a recycled pid never
 * reads as a survivor; a zombie has ended (its parent has not reaped it yet) and does not count.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  /** Start time in clock ticks since boot (field 22 of /proc/PID/stat). */
  start: string;
  zombie: boolean;
  cmd: string;
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    return {
      pid,
      ppid: Number(f[1]),
      pgid: Number(f[2]),
      start: f[19]!,
      zombie: f[0] === 'Z',
      cmd: cmd.slice(0, 120),
    };
  } catch {
    return undefined; // gone meanwhile
  }
}

export function processes(): Proc[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => p !== undefined);
}

/** `root` and every process below it. */
export function descendants(root: number): Proc[] {
  const all = processes();
  const found = new Map<number, Proc>();
  const r = all.find((p) => p.pid === root);
  if (r) found.set(root, r);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all)
      if (!found.has(p.pid) && found.has(p.ppid)) {
        found.set(p.pid, p);
        grew = true;
      }
  }
  return [...found.values()];
}

/** Of `recorded`, what still runs — and anything else running in their process groups. */
export function survivors(recorded: readonly Proc[]): Proc[] {
  const groups = new Set(recorded.map((p) => p.pgid));
  const was = new Map(recorded.map((p) => [p.pid, p.start]));
  return processes().filter((p) => !p.zombie && (was.get(p.pid) === p.start || groups.has(p.pgid)));
}
