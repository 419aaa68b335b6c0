export interface TreeProcess {
  pid: number;
  ppid: number;
  cmd: string;
  cpuMs: number;
  childrenCpuMs: number;
}
export function processTree(rootPid: number): TreeProcess[];
export function treeCpuMs(rootPid: number): number;
