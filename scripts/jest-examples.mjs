// Runs the jest examples (examples/testing/jest/) in their four setups: ts-jest and @swc/jest, CommonJS and
// ESM (jest's ESM needs node --experimental-vm-modules). They use the build: run `npm run build` first.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = 'examples/testing/jest';
if (!existsSync(`${root}/dist/testing/index.cjs`)) {
  console.error('jest examples: no build in dist/: run `npm run build` first');
  process.exit(1);
}
const configs = readdirSync(`${root}/${dir}`).filter((f) => f.endsWith('.config.cjs'));
let failed = 0;
for (const config of configs) {
  const esm = config.includes('.esm.');
  console.log(`== jest ${config}${esm ? ' (node --experimental-vm-modules)' : ''}`);
  const args = [
    ...(esm ? ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'] : []),
    'node_modules/jest/bin/jest.js',
    '--ci',
    '--config',
    `${dir}/${config}`,
  ];
  const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
console.log(failed ? `jest examples: ${failed} of ${configs.length} setups failed` : `jest examples: all ${configs.length} setups passed`);
process.exit(failed ? 1 : 0);
