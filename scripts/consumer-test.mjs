// A real consumer: `npm pack` this package, install the tarball in a fresh temporary project, then run an ESM
// script, a CJS script and a TypeScript type-check against the installed package. Every type-check runs under
// TypeScript 5.9 (this repository's) and TypeScript 7 (the native compiler a new user gets, pinned in
// test/typescript7, installed there with `npm ci` when missing).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'oz-consumer-'));
const cleanup = [dir];
const run = (cmd, args, cwd = dir) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
const typescript7 = join(root, 'test/typescript7');
if (!existsSync(join(typescript7, 'node_modules/typescript7'))) run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], typescript7);
const COMPILERS = [join(root, 'node_modules/typescript/bin/tsc'), join(typescript7, 'node_modules/typescript7/bin/tsc')];
/** Type-checks the project in `cwd` with each compiler; answers their versions. */
const typeCheck = (cwd) =>
  COMPILERS.map((tsc) => {
    run(process.execPath, [tsc, '-p', 'tsconfig.json'], cwd);
    return run(process.execPath, [tsc, '--version'], cwd).trim();
  }).join(', ');

try {
  // CI has just built dist/; build here only when it is missing, and pack what is there.
  if (!existsSync(join(root, 'dist/index.js'))) run('npm', ['run', 'build'], root);
  const tarball = run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir], root).trim().split('\n').pop();
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'oz-consumer', private: true, version: '0.0.0' }));
  // msw is an optional peer of oz-sdk/testing; this consumer has it (the second one below does not).
  const msw = JSON.parse(readFileSync(join(root, 'node_modules/msw/package.json'), 'utf8')).version;
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball), `msw@${msw}`]);

  const esm = `import { Oz, OzAPIError } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';
const server = createOzServer();
const client = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });
const item = await client.companies.items.create('acme', { building: 'hq', title: 'From ESM' });
if (item.step !== 'intake') throw new Error('unexpected step ' + item.step);
const err = await client.companies.items.create('nope', { building: 'hq', title: 'x' }).catch((e) => e);
if (!(err instanceof OzAPIError) || err.code !== 'company_not_found') throw new Error('expected company_not_found');
await server.close();
console.log('esm ok');
`;
  const cjs = `const { Oz } = require('oz-sdk');
const { createOzServer } = require('oz-sdk/testing');
(async () => {
  const server = createOzServer();
  const client = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });
  const res = await client.tools.execute('echo', { params: { text: 'from cjs' } }, { format: 'text' });
  if (!res.includes('from cjs')) throw new Error('unexpected answer ' + res);
  await server.close();
  console.log('cjs ok');
})().catch((e) => { console.error(e); process.exit(1); });
`;
  const ts = `import { Oz, type Item, type ExecutionResult } from 'oz-sdk';
import { createOzServer } from 'oz-sdk/testing';
const server = createOzServer();
const client = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch });
export async function main(): Promise<[Item, ExecutionResult, string]> {
  const item: Item = await client.companies.items.create('acme', { building: 'hq', title: 'typed' });
  const result: ExecutionResult = await client.tools.execute('echo', { params: { text: 'x' } });
  const text: string = await client.tools.execute('echo', { text: 'x' }, { format: 'text' });
  // @ts-expect-error: title is required
  await client.companies.items.create('acme', { building: 'hq' });
  return [item, result, text];
}
`;
  writeFileSync(join(dir, 'esm.mjs'), esm);
  writeFileSync(join(dir, 'cjs.cjs'), cjs);
  writeFileSync(join(dir, 'check.ts'), ts);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, skipLibCheck: false, types: [] },
      files: ['check.ts'],
    }),
  );
  process.stdout.write(run('node', ['esm.mjs']));
  process.stdout.write(run('node', ['cjs.cjs']));
  console.log(`typescript ok (${typeCheck(dir)})`);

  // msw is an optional peer: a consumer without it type-checks oz-sdk/testing too (skipLibCheck false).
  // Its own directory outside the first one, whose node_modules (with msw) Node and tsc would find upwards.
  const bare = mkdtempSync(join(tmpdir(), 'oz-consumer-no-msw-'));
  cleanup.push(bare);
  writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'oz-consumer-no-msw', private: true, version: '0.0.0' }));
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, tarball)], bare);
  if (existsSync(join(bare, 'node_modules/msw'))) throw new Error('msw was installed: the no-msw check would prove nothing');
  writeFileSync(
    join(bare, 'check.ts'),
    `import { createOzServer, connectOzMock, type OzControls, type FaultSpec } from 'oz-sdk/testing';
const server = createOzServer({ fixtures: { tools: [{ name: 'hello', answer: 'hi {{who}}' }] } });
const fault: FaultSpec = { operationId: 'executeTool', type: 'error', status: 503, code: 'upstream_error' };
server.faults.add(fault);
// @ts-expect-error: not an operationId of openapi.json
server.faults.add({ operationId: 'executeTools', type: 'drop' });
const controls: OzControls[] = [server, connectOzMock({ url: 'http://127.0.0.1:4010', adminToken: 'ozadm_x' })];
export { controls };
`,
  );
  writeFileSync(
    join(bare, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', noEmit: true, skipLibCheck: false, types: [] },
      files: ['check.ts'],
    }),
  );
  console.log(`typescript without msw ok (${typeCheck(bare)})`);
  console.log('consumer test: ESM, CJS and TypeScript (with and without msw) pass against the packed tarball');
} finally {
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
}
