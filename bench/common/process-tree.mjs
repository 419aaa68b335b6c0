// What /proc says of a process and those it started (Linux), for the benches' CPU columns. Plain
// JavaScript so that the .mjs benches (bench/cluster) and the TypeScript ones share it.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks a second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** Every process now: its parent, command line and CPU so far, in ms. */
function allProcesses() {
  const all = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // the command name may hold spaces and parentheses: the fields start after the last ')'
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const ms = (at) => (Number(fields[at]) * 1000) / TICKS_PER_S;
      // utime + stime, and cutime + cstime: what its children that it waited for used
      all.set(Number(entry), {
        ppid: Number(fields[1]),
        cmd,
        cpuMs: ms(11) + ms(12),
        childrenCpuMs: ms(13) + ms(14),
      });
    } catch {
      // gone between the listing and the read
    }
  }
  return all;
}

/** The processes under `rootPid` (itself excluded), each with its command line and CPU so far. */
export function processTree(rootPid, all = allProcesses()) {
  const found = [];
  const walk = (pid) => {
    for (const [child, info] of all)
      if (info.ppid === pid) {
        found.push({ pid: child, ...info });
        walk(child);
      }
  };
  walk(rootPid);
  return found;
}

/**
 * CPU ms used so far by `rootPid` and every process under it (a runner's sandboxes): their utime and
 * stime, and what their exited children used (cutime, cstime: a sandbox replaced is still counted).
 */
export function treeCpuMs(rootPid) {
  const all = allProcesses();
  const own = all.get(rootPid);
  if (!own) return Number.NaN;
  return [own, ...processTree(rootPid, all)].reduce((sum, p) => sum + p.cpuMs + p.childrenCpuMs, 0);
}
