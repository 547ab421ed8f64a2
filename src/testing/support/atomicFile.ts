import { open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomAlnum } from './ids.js';

/** The temporary file of one atomic write of `path`: beside it, named for the writing process. */
function temporaryOf(path: string): string {
  return `${path}.${process.pid}.${randomAlnum(8)}.tmp`;
}

/**
 * Writes a file atomically: a temporary file beside it, flushed to disk, then renamed over it. A reader (or a
 * crash) sees the old content or the new, never half of it.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const temporary = temporaryOf(path);
  try {
    const file = await open(temporary, 'w');
    try {
      await file.writeFile(content, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/** Whether a process with this id is alive (one of another user counts: signalling it is refused, not unknown). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files that writes of `path` cut short (a kill during a save) left beside it: only names of
 * the {@link writeFileAtomic} pattern for that file, `<name>.<pid>.<8 letters or digits>.tmp`, and only those of a
 * process no longer alive, so a save another live process has under way keeps its file. Answers the paths removed.
 */
export async function removeStaleTemporaries(path: string): Promise<string[]> {
  const name = basename(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^${name}\\.(\\d+)\\.[A-Za-z0-9]{8}\\.tmp$`);
  const folder = dirname(path);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of names) {
    const pid = pattern.exec(entry)?.[1];
    if (pid === undefined || processAlive(Number(pid))) continue;
    const stale = join(folder, entry);
    // A file that cannot be removed (a read-only folder) stays: the start goes on.
    if (
      await rm(stale, { force: true }).then(
        () => true,
        () => false,
      )
    )
      removed.push(stale);
  }
  return removed;
}
