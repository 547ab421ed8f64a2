#!/usr/bin/env node
// `npx oz-mock` in a clone of oz-sdk: runs the built command when `dist/` is there, else the TypeScript source
// through tsx (a devDependency), so it works right after `npm ci` without a build.
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(realpathSync(fileURLToPath(import.meta.url))), '..', '..');
const built = join(root, 'dist/testing/cli.js');
const args = existsSync(built) ? [built, ...process.argv.slice(2)] : ['--import', 'tsx', join(root, 'src/testing/cli.ts'), ...process.argv.slice(2)];
const child = spawn(process.execPath, args, { stdio: 'inherit', cwd: process.cwd() });
// The command stops cleanly on SIGINT and SIGTERM: pass them on and leave with its exit code.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
