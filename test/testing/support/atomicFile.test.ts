/**
 * The temporary files of a save cut short (`state.json.<pid>.<rand>.tmp`) are removed at the next start, those of
 * dead processes only (the contract's "Trust at the edges, round 3").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeStaleTemporaries, writeFileAtomic } from '../../../src/testing/support/atomicFile.js';
import { startOzMock, type SpawnedOzMock } from '../control/spawnOzMock.js';

const dir = mkdtempSync(join(tmpdir(), 'oz-mock-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const started: SpawnedOzMock[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((m) => m.stop()));
});

/** The id of a process that has ended (a child run to its end). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** Plants files in a fresh folder; answers the folder. */
function planted(name: string, files: readonly string[]): string {
  const folder = mkdtempSync(join(dir, `${name}-`));
  for (const file of files) writeFileSync(join(folder, file), 'partial');
  return folder;
}

describe('removeStaleTemporaries', () => {
  it('removes the temporaries of dead processes for that file only, and keeps a live process’s save', async () => {
    const dead = deadPid();
    const folder = planted('mixed', [
      `state.json.${dead}.AbCd1234.tmp`,
      `state.json.${dead}.ZZZZ9999.tmp`,
      `state.json.${process.pid}.LiveLive.tmp`,
      `other.json.${dead}.AbCd1234.tmp`,
      `state.json.${dead}.short.tmp`,
      `state.json.${dead}.AbCd1234.tmp.bak`,
      'state.json',
    ]);
    const removed = await removeStaleTemporaries(join(folder, 'state.json'));
    expect(removed.sort()).toEqual([join(folder, `state.json.${dead}.AbCd1234.tmp`), join(folder, `state.json.${dead}.ZZZZ9999.tmp`)]);
    expect(readdirSync(folder).sort()).toEqual(
      [
        `other.json.${dead}.AbCd1234.tmp`,
        'state.json',
        `state.json.${dead}.AbCd1234.tmp.bak`,
        `state.json.${dead}.short.tmp`,
        `state.json.${process.pid}.LiveLive.tmp`,
      ].sort(),
    );
  });

  it('reads the file name literally (no pattern in it) and answers [] for a folder that does not exist', async () => {
    const dead = deadPid();
    const folder = planted('literal', [`st+ate.json.${dead}.AbCd1234.tmp`, `sttate.json.${dead}.AbCd1234.tmp`]);
    expect(await removeStaleTemporaries(join(folder, 'st+ate.json'))).toEqual([join(folder, `st+ate.json.${dead}.AbCd1234.tmp`)]);
    expect(existsSync(join(folder, `sttate.json.${dead}.AbCd1234.tmp`))).toBe(true);
    expect(await removeStaleTemporaries(join(dir, 'no-such-folder', 'state.json'))).toEqual([]);
  });

  it('a save leaves no temporary file of its own', async () => {
    const folder = planted('save', []);
    await writeFileAtomic(join(folder, 'state.json'), '{}');
    expect(readdirSync(folder)).toEqual(['state.json']);
  });
});

describe('oz-mock --state FILE at start', () => {
  it('removes the temporaries a killed save left, keeps a live process’s, and loads the state', async () => {
    const dead = deadPid();
    const folder = planted('start', [`state.json.${dead}.AbCd1234.tmp`, `state.json.${dead}.Qwer5678.tmp`, `state.json.${process.pid}.LiveLive.tmp`]);
    const file = join(folder, 'state.json');
    const { mock, line } = await startOzMock(['--state', file]);
    started.push(mock);
    expect(line.url).toMatch(/^http:/);
    expect(readdirSync(folder).sort()).toEqual([`state.json.${process.pid}.LiveLive.tmp`]);
    expect(await mock.stop()).toEqual({ code: 0, signal: null });
    expect(readdirSync(folder).sort()).toEqual(['state.json', `state.json.${process.pid}.LiveLive.tmp`]);
  });

  it('removes the temporary of a save cut by SIGKILL', async () => {
    const folder = planted('killed', []);
    const file = join(folder, 'state.json');
    const first = await startOzMock(['--state', file]);
    started.push(first.mock);
    // What a kill between the temporary's write and its rename leaves: a temporary named for that process.
    const pid = first.mock.child.pid!;
    first.mock.child.kill('SIGKILL');
    await first.mock.exit;
    writeFileSync(`${file}.${pid}.Kill1234.tmp`, '{"format": "oz-mock-state", "vers');
    const again = await startOzMock(['--state', file]);
    started.push(again.mock);
    expect(readdirSync(folder)).toEqual([]);
  });
});
