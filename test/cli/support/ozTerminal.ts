import { join } from 'node:path';
import { spawn } from '@lydell/node-pty';
import { builtBins } from './builtCli.js';

/**
 * Runs the built `oz` in a pseudo-terminal (@lydell/node-pty: stdout and stderr are TTYs) with the machine's
 * environment less the developer's OZ_ variables, plus `env`; answers its exit code and what the terminal got.
 */
export async function ozInTerminal(args: string[], env: Record<string, string>): Promise<{ code: number; screen: string }> {
  const bin = join(await builtBins(), 'cli/oz.js');
  const base = Object.fromEntries(Object.entries(process.env).filter(([name, value]) => !name.startsWith('OZ_') && value !== undefined)) as Record<
    string,
    string
  >;
  const terminal = spawn(process.execPath, [bin, ...args], { cols: 200, rows: 20, env: { ...base, ...env } });
  let screen = '';
  terminal.onData((data) => (screen += data));
  const code = await new Promise<number>((resolve) => terminal.onExit(({ exitCode }) => resolve(exitCode)));
  return { code, screen };
}
