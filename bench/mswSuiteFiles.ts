/**
 * The generated vitest suite of the msw suite row (issue 47, point 8): 24 files x 10 tests, each test a
 * `tools.execute` and an `items.create`, written into a folder of their own at run time, once through
 * `setupServer(...server.handlers())` of the embedded server and once through hand-written msw handlers answering
 * the same JSON. Both import the built package (the figure's), as a user's suite would.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Which msw handlers a generated suite listens with. */
export type SuiteHandlers = 'mount' | 'hand';

/** What the generated files need: the package's entries, and the JSON a hand-written handler answers. */
export interface SuiteSource {
  /** `file:` URL of the built `oz-sdk` entry. */
  readonly indexUrl: string;
  /** `file:` URL of the built `oz-sdk/testing` entry. */
  readonly testingUrl: string;
  /** The embedded server's answer to `tools.execute('echo', { text: 'hello' })`. */
  readonly toolAnswer: unknown;
  /** The embedded server's answer (201) to `items.create('acme', SUITE_ITEM_BODY)`. */
  readonly itemAnswer: unknown;
}

/** The item body every generated test creates (the hand-written handler's answer is the server's to it). */
export const SUITE_ITEM_BODY = { building: 'hq', title: 'Suite item' };

/** The server and the client of a file, through the embedded server's msw handlers. */
function mountPrelude(source: SuiteSource): string {
  return `import { createOzServer } from ${JSON.stringify(source.testingUrl)};
const server = createOzServer();
const msw = setupServer(...server.handlers());
const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, maxRetries: 0 });
afterAll(() => server.close());
`;
}

/** The same, through msw handlers written by hand that answer the JSON the embedded server answers. */
function handPrelude(source: SuiteSource): string {
  return `import { http, HttpResponse } from 'msw';
const BASE = 'http://api.oz.test';
const msw = setupServer(
  http.post(\`\${BASE}/v1/tools/:tool/execute\`, () => HttpResponse.json(${JSON.stringify(source.toolAnswer)})),
  http.post(\`\${BASE}/v1/companies/:company/items\`, () => HttpResponse.json(${JSON.stringify(source.itemAnswer)}, { status: 201 })),
);
const oz = new Oz({ baseURL: BASE, apiKey: 'ozk_hand_written', maxRetries: 0 });
`;
}

/** One test file: the prelude of `handlers`, then `tests` tests of a tool call and an item creation. */
export function suiteFile(handlers: SuiteHandlers, source: SuiteSource, tests: number): string {
  const cases = Array.from(
    { length: tests },
    (_, i) => `it('calls a tool and creates an item ${i}', async () => {
  const tool = await oz.tools.execute('echo', { text: 'hello' });
  expect(tool.ok).toBe(true);
  const item = await oz.companies.items.create('acme', ${JSON.stringify(SUITE_ITEM_BODY)});
  expect(item.title).toBe(${JSON.stringify(SUITE_ITEM_BODY.title)});
});
`,
  );
  return `import { afterAll, beforeAll, expect, it } from 'vitest';
import { setupServer } from 'msw/node';
import { Oz } from ${JSON.stringify(source.indexUrl)};
${handlers === 'mount' ? mountPrelude(source) : handPrelude(source)}
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterAll(() => msw.close());
${cases.join('')}`;
}

/**
 * Writes the two suites under `dir` (`dir/mount`, `dir/hand`, `files` files of `tests` tests each) and a vitest
 * config for each: its own folder only, one worker, files isolated as vitest does by default, and the built
 * package loaded by Node as a dependency would be (not transformed by vite).
 */
export function writeSuites(dir: string, source: SuiteSource, files: number, tests: number): Record<SuiteHandlers, string> {
  const configs = {} as Record<SuiteHandlers, string>;
  for (const handlers of ['mount', 'hand'] as const) {
    const folder = join(dir, handlers);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < files; i++) writeFileSync(join(folder, `suite${String(i).padStart(2, '0')}.test.ts`), suiteFile(handlers, source, tests));
    const config = join(folder, 'vitest.config.mjs');
    writeFileSync(
      config,
      // The files sit under node_modules (to find vitest and msw), so vite is told to transform them all the same.
      `export default { test: { root: ${JSON.stringify(folder)}, include: ['*.test.ts'], exclude: [], maxWorkers: 1, reporters: ['dot'], server: { deps: { inline: [${JSON.stringify(folder + '/')}], external: [/\\/dist\\//] } } } };\n`,
    );
    configs[handlers] = config;
  }
  return configs;
}
