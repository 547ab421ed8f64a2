import { open, rename, rm } from 'node:fs/promises';
import { randomAlnum } from './ids.js';

/**
 * Writes a file atomically: a temporary file beside it, flushed to disk, then renamed over it. A reader (or a
 * crash) sees the old content or the new, never half of it.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomAlnum(8)}.tmp`;
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
