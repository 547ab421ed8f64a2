import { execFileSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem, type as osType, release } from 'node:os';

/** The machine a run measured on. */
export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly node: string;
  readonly os: string;
  readonly memoryGb: number;
  readonly commit: string;
  readonly date: string;
}

export function machineInfo(root: string): MachineInfo {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8' }).trim();
    if (dirty) commit += ' (with uncommitted changes)';
  } catch {
    // Not a git checkout: the commit stays unknown.
  }
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    node: process.version,
    os: `${osType()} ${release()}`,
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    commit,
    date: new Date().toISOString(),
  };
}

/** The 1-minute load average, formatted: other processes on the machine share its cores with the benchmarks. */
export function loadAverage(): string {
  return loadavg()[0]!.toFixed(2);
}
