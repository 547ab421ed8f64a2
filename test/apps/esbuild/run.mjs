// The esbuild app: the packed tarball (env OZ_TARBALL) installed beside this folder's pinned esbuild; client.js
// (`oz-sdk`) and funcs.js (`oz-sdk/funcs`) bundled for platform node, neutral and browser, each as CommonJS and as
// ESM, each plain and minified. Every bundle must build without an error or a warning; the neutral and browser bundles must load no Node
// built-in module (none in esbuild's metafile, none named in the bundle); and every bundle runs under Node against a
// real oz-mock and prints what the program answered (an echo, a typed error).
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { assert, builtinsIn, installApp, mustRun, removeFolder, runChecks, startOzMock, tarballFromEnv } from '../appKit.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const tarball = tarballFromEnv('esbuild');
const PROGRAMS = {
  'client.js': { echo: 'bundled', error: 'ToolNotFoundError 404 tool_not_found', typed: true, tableClasses: true },
  'funcs.js': { echo: 'bundled', error: 'ToolNotFoundError 404 tool_not_found' },
};
const PLATFORMS = ['node', 'neutral', 'browser'];
const FORMATS = { cjs: 'cjs', esm: 'mjs' };

let dir;
let ozMock;

/** Bundles one program; answers the bundle's path. */
async function bundle(program, platform, format, minify) {
  const esbuild = createRequire(join(dir, 'package.json'))('esbuild');
  const outfile = join(dir, 'out', `${program.replace('.js', '')}.${platform}${minify ? '.min' : ''}.${FORMATS[format]}`);
  const result = await esbuild.build({
    entryPoints: [join(dir, program)],
    bundle: true,
    platform,
    format,
    minify,
    outfile,
    metafile: true,
    logLevel: 'silent',
  });
  const warnings = await esbuild.formatMessages(result.warnings, { kind: 'warning' });
  assert(warnings.length === 0, `esbuild warned:\n${warnings.join('\n')}`);
  if (platform !== 'node') {
    const loaded = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
    assert(loaded.length === 0, `the ${platform} bundle imports ${loaded.join(', ')}`);
    const named = [...builtinsIn(readFileSync(outfile, 'utf8'))];
    assert(named.length === 0, `the ${platform} bundle names Node built-ins: ${named.join(', ')}`);
  }
  return outfile;
}

/** Runs a bundle under Node against oz-mock and checks its one line of answer. */
async function runBundle(program, file) {
  const env = { ...process.env, OZ_BASE_URL: ozMock.url, OZ_API_KEY: ozMock.apiKey };
  const output = await mustRun(process.execPath, [file], { cwd: dir, env, timeoutMs: 60_000 });
  const answer = output.trim().split('\n').pop();
  assert(answer === JSON.stringify(PROGRAMS[program]), `${file} answered ${output.slice(-2000)}, expected ${JSON.stringify(PROGRAMS[program])}`);
}

const bundles = Object.keys(PROGRAMS).flatMap((program) =>
  PLATFORMS.flatMap((platform) =>
    Object.keys(FORMATS).flatMap((format) =>
      [false, true].map((minify) => [
        `${program}: platform ${platform}, ${format}${minify ? ', minified' : ''}`,
        async () => runBundle(program, await bundle(program, platform, format, minify)),
      ]),
    ),
  ),
);

await runChecks(
  'esbuild',
  [
    [
      ['install (npm ci, then the tarball)', async () => (dir = await installApp(here, tarball))],
      ['oz-mock started', async () => (ozMock = await startOzMock(dir))],
    ],
    ...bundles.map((check) => [check]),
  ],
  async () => {
    await ozMock?.stop();
    removeFolder(dir);
  },
);
