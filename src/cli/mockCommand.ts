import type { CliIO } from './operationCommand.js';

/**
 * `oz mock ...`: runs the `oz-mock` bin of this package (dist/testing/cli.js beside this command's own file) in a
 * child process with the same arguments and terminal, passes Ctrl+C and SIGTERM on, and answers its exit code.
 * A child process, not an import: the command line never loads the embedded server's code.
 */
export async function runMock(args: readonly string[], io: CliIO): Promise<number> {
  const { spawn } = await import('node:child_process');
  const { realpathSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  const bin = join(dirname(realpathSync(process.argv[1]!)), '..', 'testing', 'cli.js');
  const child = spawn(process.execPath, [bin, ...args], { stdio: 'inherit', env: { ...process.env, ...io.env } });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = forward('SIGINT');
  const onTerm = forward('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  try {
    return await new Promise<number>((resolve) => {
      child.on('error', (error) => {
        io.stderr.write(`oz mock: cannot start ${bin}: ${error.message}\n`);
        resolve(1);
      });
      child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
    });
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
  }
}
