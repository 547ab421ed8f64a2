/**
 * The built client entries (`oz-sdk`, `oz-sdk/mcp`, `oz-sdk/funcs`), as Node loads them in ESM and in CJS: one
 * class per error and one `Stream` across the three (tsup's shared chunks; the first-use features of `OzCore` in
 * their lazy chunk), and a cold `import('oz-sdk')` that loads the client's own chunks only (none of the embedded
 * server's or the `oz` command's: their builds are separate, see tsup.config.ts).
 *
 * `dist/` is used when it is newer than every source (CI builds before `npm test`); else the builds of tsup.config.ts
 * run here (no declarations; test/support/builtPackage.ts), so a fresh clone's `npm test` checks them too.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtPackage } from '../support/builtPackage.js';
import { createOzServer } from '../../src/testing/index.js';

type Module = Record<string, unknown>;
interface Entries {
  readonly sdk: Module;
  readonly mcp: Module;
  readonly funcs: Module;
}

/** What a standalone function gives back or throws, to compare with the `oz-sdk` entry's classes. */
async function throughFuncs(entries: Entries) {
  const server = createOzServer();
  try {
    const OzCore = entries.funcs['OzCore'] as new (options: object) => unknown;
    const core = new OzCore({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off', maxRetries: 0 });
    const toolsGet = entries.funcs['toolsGet'] as (core: unknown, name: string) => Promise<unknown>;
    const agentsExecute = entries.funcs['agentsExecute'] as (
      core: unknown,
      body: object,
    ) => Promise<{ close(): Promise<void>; wait(o: object): Promise<{ execution_id: string }> }>;
    const error = await toolsGet(core, 'no-such-tool').catch((e: unknown) => e);
    const stream = await agentsExecute(core, { agent: 'writer', user_request: 'hi', stream: true });
    await stream.close();
    const pointer = await agentsExecute(core, { agent: 'writer', user_request: 'hi', async: true });
    const finished = await pointer.wait({ interval: 10 });
    return { error, stream, finished };
  } finally {
    await server.close();
  }
}

function expectOneClassEach(entries: Entries, format: string) {
  // Every name both export (oz-sdk/mcp's error classes and its client among them).
  const mcpNames = Object.keys(entries.mcp).filter((name) => name in entries.sdk);
  expect(mcpNames, format).toEqual(expect.arrayContaining(['McpClient', 'OzMcpError', 'McpToolError']));
  for (const name of mcpNames) expect(entries.mcp[name], `${format}: oz-sdk/mcp's ${name} is oz-sdk's`).toBe(entries.sdk[name]);
  expect(typeof entries.funcs['OzCore'], format).toBe('function');
}

/** The files a module statically loads, itself included (relative imports of the built chunks). */
function staticFiles(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const match of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s[^;]*?['"](\.[^'"]+)['"]/gm))
    staticFiles(resolve(dirname(file), match[1]!), seen);
  return seen;
}

/** Every file of the build with the extension `ext`, as paths under `dir`. */
function builtFiles(dir: string, ext: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith(ext));
}

describe('the built client entries', () => {
  let dir = '';
  beforeAll(async () => {
    dir = join(await builtPackage(), 'dist');
  }, 180_000);

  it('share one class per error, one Stream and the optional parts across oz-sdk, oz-sdk/mcp and oz-sdk/funcs in ESM', async () => {
    const load = (file: string) => import(pathToFileURL(join(dir, file)).href) as Promise<Module>;
    const entries = { sdk: await load('index.js'), mcp: await load('mcp/index.js'), funcs: await load('funcs/index.js') };
    expectOneClassEach(entries, 'ESM');
    const { error, stream, finished } = await throughFuncs(entries);
    expect(error).toBeInstanceOf(entries.sdk['ToolNotFoundError'] as new () => unknown);
    expect(error).toBeInstanceOf(entries.sdk['OzAPIError'] as new () => unknown);
    expect(stream).toBeInstanceOf(entries.sdk['Stream'] as new () => unknown);
    expect(finished.execution_id).toMatch(/./);
  });

  it('share one class per error, one Stream and the optional parts across oz-sdk, oz-sdk/mcp and oz-sdk/funcs in CJS', async () => {
    const require = createRequire(join(dir, 'index.cjs'));
    const entries = { sdk: require('./index.cjs') as Module, mcp: require('./mcp/index.cjs') as Module, funcs: require('./funcs/index.cjs') as Module };
    expectOneClassEach(entries, 'CJS');
    const { error, stream, finished } = await throughFuncs(entries);
    expect(error).toBeInstanceOf(entries.sdk['ToolNotFoundError'] as new () => unknown);
    expect(stream).toBeInstanceOf(entries.sdk['Stream'] as new () => unknown);
    expect(finished.execution_id).toMatch(/./);
  });

  it("loads, on import('oz-sdk'), only the client's own chunks: no file of the embedded server's or the oz command's builds", () => {
    const index = staticFiles(join(dir, 'index.js'));
    expect(index.size).toBeGreaterThan(1);
    for (const other of ['testing/index.js', 'testing/cli.js', 'cli/oz.js']) {
      const shared = [...staticFiles(join(dir, other))].filter((file) => index.has(file));
      expect(shared, other).toEqual([]);
    }
  });

  it('hold no dynamic import() in any CommonJS file: an optional part is a require there (jest cannot run an import())', () => {
    const cjs = builtFiles(dir, '.cjs');
    expect(cjs).toEqual(expect.arrayContaining(['index.cjs', 'funcs/index.cjs', 'mcp/index.cjs', 'testing/index.cjs']));
    const withImport = cjs.filter((file) => /\bimport\(/.test(readFileSync(join(dir, file), 'utf8')));
    expect(withImport).toEqual([]);
  });

  it('load the optional parts by require in CommonJS: YAML and a validated call work from index.cjs', async () => {
    const require = createRequire(join(dir, 'index.cjs'));
    const { Oz } = require('./index.cjs') as {
      Oz: new (options: object) => { tools: { execute(tool: string, params: object, options?: object): Promise<{ content: string }> } };
    };
    const server = createOzServer();
    try {
      const oz = new Oz({ apiKey: server.apiKey, baseURL: server.url, fetch: server.fetch, logLevel: 'off' });
      expect((await oz.tools.execute('echo', { text: 'yaml' }, { format: 'yaml' })).content).toBe('yaml');
      expect((await oz.tools.execute('echo', { text: 'checked' }, { validate: 'strict' })).content).toBe('checked');
    } finally {
      await server.close();
    }
  });
});
