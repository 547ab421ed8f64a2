/**
 * A place to run the single executable as on a machine without Node.js: a copy of it in an empty temporary folder
 * (nothing of the repository beside it or above it), an environment whose PATH is one folder holding only
 * `python3`, and, where the machine lets us (root, util-linux's `unshare`), a mount namespace in which the Node
 * that built it is unreadable (/dev/null bound over it), so not even an absolute path reaches it.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import type { OzMockLauncher } from '../testing/control/spawnOzMock.js';

const UNSHARE = '/usr/bin/unshare';
const MOUNT = ['/usr/bin/mount', '/bin/mount'].find((file) => existsSync(file));
// $0 is the file hidden, "$@" the command run once it is: exec keeps the pid, so signals reach the command.
const HIDE = ['--mount', '--propagation', 'private', '/bin/sh', '-c', `${MOUNT} --bind /dev/null "$0" || exit 97; exec "$@"`];

export interface NodelessPlace {
  /** The copy of the executable. */
  readonly binary: string;
  /** The folder it sits in, and the working folder of what runs there. */
  readonly dir: string;
  /** PATH (only `python3`), HOME and LANG: nothing inherited from this process. */
  readonly env: NodeJS.ProcessEnv;
  /** The Node on this machine (hidden in the mount namespace when `nodeHidden`). */
  readonly node: string;
  readonly nodeHidden: boolean;
  /** How to run a file there with its arguments. */
  launcher(file: string, args?: readonly string[]): OzMockLauncher;
  remove(): void;
}

/** The Python interpreter `python3` runs here, by its real path (a pyenv shim needs more than PATH). */
function pythonExecutable(): string {
  return execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
}

export function nodelessPlace(binary: string): NodelessPlace {
  const dir = mkdtempSync(join(tmpdir(), 'oz-mock-nodeless-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(pythonExecutable(), join(bin, 'python3'));
  const copy = join(dir, basename(binary));
  copyFileSync(binary, copy);
  chmodSync(copy, 0o755);
  const env = { PATH: bin, HOME: dir, LANG: 'C.UTF-8' };
  const node = realpathSync(process.execPath);
  const nodeHidden = MOUNT !== undefined && existsSync(UNSHARE) && spawnSync(UNSHARE, [...HIDE, node, '/bin/true'], { env }).status === 0;
  const launcher = (file: string, args: readonly string[] = []): OzMockLauncher =>
    nodeHidden ? { file: UNSHARE, args: [...HIDE, node, file, ...args], env, cwd: dir } : { file, args, env, cwd: dir };
  return { binary: copy, dir, env, node, nodeHidden, launcher, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
