// The layering rule (.dependency-cruiser.cjs, run by `npm run lint:layers` in `npm test`): the real tool passes
// on the tree, and fails on a copy of the tree given one wrong-way import per rule.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/**
 * Runs dependency-cruiser as `npm run lint:layers` does, with the project's config over `src` of `cwd`: its exit
 * code and the violations it reports (`<rule>: <from> -> <to>`).
 */
function cruise(cwd: string): { status: number | null; violations: string[] } {
  const run = spawnSync(process.execPath, [CLI, 'src', '--config', join(root, '.dependency-cruiser.cjs')], { cwd, encoding: 'utf8' });
  if (!/dependencies cruised/.test(run.stdout)) throw new Error(`dependency-cruiser did not run: ${run.stdout}${run.stderr}`);
  const violations = [...run.stdout.matchAll(/^\s*error ([\w-]+): (\S+) \u2192\s*(\S+)/gm)].map(([, rule, from, to]) => `${rule}: ${from} -> ${to}`);
  return { status: run.status, violations: violations.sort() };
}

/** One file of each folder of src/core, in the order of `CORE_RANKS` in .dependency-cruiser.cjs (top first). */
const CORE_RANKS = [
  'span/traceSpan.ts',
  'answer/decodeAnswer.ts',
  'recovery/recoverLostAnswer.ts',
  'retry/retryAttempts.ts',
  'attempt/timeAttempt.ts',
  'middleware/runMiddleware.ts',
  'redirect/followRedirects.ts',
  'fetch/fetchOnce.ts',
  'executions/executionPoller.ts',
  'result/apiPromise.ts',
  'request/callRequest.ts',
  'options/callSettings.ts',
  'validation/answerValidation.ts',
  'telemetry/tracing.ts',
  'shared/call.ts',
  'streams/stream.ts',
  'errors/errors.ts',
];

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the layering rule', () => {
  it('holds on the tree', () => {
    const { status, violations } = cruise(root);
    expect(violations).toEqual([]);
    expect(status).toBe(0);
  }, 60_000);

  it('fails on each wrong-way import, naming the rule, the importer and the imported file', async () => {
    const tree = mkdtempSync(join(tmpdir(), 'oz-layers-'));
    scratch.push(tree);
    cpSync(join(root, 'src'), join(tree, 'src'), { recursive: true });
    for (const file of ['openapi.json', 'tsconfig.json', 'package.json']) cpSync(join(root, file), join(tree, file));
    // One planted file per rule (a circle takes two, and is reported once), and the violation each must raise.
    const planted: Record<string, string> = {
      'src/core/wrongWay.ts': "export type { OperationId } from '../generated/operations.js';",
      'src/core/retry/wrongWay.ts': "export type { Transport } from '../transport.js';",
      'src/core/span/wrongWay.ts': "import '../callChain.js';",
      // Each folder of the core reaches the folder just above it in the chain's order.
      ...Object.fromEntries(
        CORE_RANKS.slice(1).map((file, i) => [`src/core/${dirname(file)}/wrongRank.ts`, `import '../${CORE_RANKS[i]!.replace(/ts$/, 'js')}';`]),
      ),
      'src/generated/wrongWay.ts': "export type { Oz } from '../client.js';",
      'src/resources/wrongWay.ts': "export type { OzServer } from '../testing/server.js';",
      'src/testing/pipeline/wrongWay.ts': "export type { Executions } from '../../resources/executions.js';",
      'src/testing/runs/wrongWay.ts': "export type { OzRawClient } from '../../raw/rawClientType.js';",
      'src/mcp/wrongWay.ts': "export { signIn } from '../signin/signIn.js';",
      'src/testing/handlers/wrongWay.ts': "export { agentView } from './agents.js';",
      'src/testing/handlers/models/wrongWay.ts': "export { agentView } from '../agents.js';",
      'src/testing/handlers/agents/wrongPart.ts': "export { chatAsk } from '../models/chatRequest.js';",
      'src/testing/loose.ts': "export { newId } from './support/ids.js';",
      'src/testing/support/circleA.ts': "export type { B } from './circleB.js';\nexport type A = string;",
      'src/testing/support/circleB.ts': "export type { A } from './circleA.js';\nexport type B = number;",
      // Each folder of the server reaches one folder above it (builders, the top one, the composition root).
      'src/testing/support/wrongLayer.ts': "export type { ServerClock } from '../time/clock.js';",
      'src/testing/time/wrongLayer.ts': "export type { OzMockError } from '../contract/errors.js';",
      'src/testing/contract/wrongLayer.ts': "export type { RequestOutcome } from '../wire/requestOutcome.js';",
      'src/testing/wire/wrongLayer.ts': "export type { ServerData } from '../state/state.js';",
      'src/testing/state/wrongLayer.ts': "export type { Runner } from '../runs/runner.js';",
      'src/testing/runs/wrongLayer.ts': "export type { Journal } from '../harness/journal.js';",
      'src/testing/harness/wrongLayer.ts': "export type { RequestContext } from '../pipeline/requestContext.js';",
      'src/testing/pipeline/wrongLayer.ts': "export { HANDLERS } from '../handlers/index.js';",
      'src/testing/handlers/wrongLayer.ts': "export type { MountOptions } from '../mounts/fetchMount.js';",
      'src/testing/mounts/wrongLayer.ts': "export type { FixtureSummary } from '../fixtures/fixtures.js';",
      'src/testing/fixtures/wrongLayer.ts': "export type { OzServer } from '../public/ozServer.js';",
      'src/testing/public/wrongLayer.ts': "export type { OzControls } from '../control/remote.js';",
      'src/testing/parts/wrongLayer.ts': "export type { ControlNeeds } from '../control/controlPlane.js';",
      'src/testing/control/wrongLayer.ts': "export type { SessionWorld } from '../sessions/sessionRegistry.js';",
      'src/testing/sessions/wrongLayer.ts': "export { createOzServer } from '../server.js';",
      'src/testing/recording/wrongLayer.ts': "export type { ServerData } from '../state/state.js';",
      'src/testing/parity/wrongLayer.ts': "export { createOzServer } from '../server.js';",
      'src/testing/builders/wrongLayer.ts': "export { createOzServer } from '../server.js';",
      'src/profiles/wrongWay.ts': "export { EXIT } from '../cli/exitCodes.js';",
      'src/cli/wrongWay.ts': "export { signIn } from '../signin/signIn.js';",
      'src/funcs/wrongWay.ts': "export type { Oz } from '../client.js';",
      'src/resources/wrongFuncs.ts': "export type { OzCore } from '../funcs/ozCore.js';",
    };
    for (const [path, text] of Object.entries(planted)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), `${text}\n`);
    }

    const expected = [
      'client-never-imports-server: src/resources/wrongWay.ts -> src/testing/server.ts',
      'core-imports-nothing-of-ours: src/core/wrongWay.ts -> src/generated/operations.ts',
      'core-folders-only: src/core/wrongWay.ts -> src/generated/operations.ts',
      'core-retry-imports-below: src/core/retry/wrongWay.ts -> src/core/transport.ts',
      'core-span-imports-below: src/core/span/wrongWay.ts -> src/core/callChain.ts',
      ...CORE_RANKS.slice(1).map((file, i) => `core-${dirname(file)}-imports-below: src/core/${dirname(file)}/wrongRank.ts -> src/core/${CORE_RANKS[i]}`),
      'generated-imports-only-core: src/generated/wrongWay.ts -> src/client.ts',
      'handlers-never-import-handlers: src/testing/handlers/agents/wrongPart.ts -> src/testing/handlers/models/chatRequest.ts',
      'handlers-never-import-handlers: src/testing/handlers/models/wrongWay.ts -> src/testing/handlers/agents.ts',
      'handlers-never-import-handlers: src/testing/handlers/wrongWay.ts -> src/testing/handlers/agents.ts',
      'resources-beside-each-other: src/mcp/wrongWay.ts -> src/signin/signIn.ts',
      'server-never-imports-client: src/testing/pipeline/wrongWay.ts -> src/resources/executions.ts',
      'server-never-imports-client: src/testing/runs/wrongWay.ts -> src/raw/rawClientType.ts',
      'server-folders-only: src/testing/loose.ts -> src/testing/support/ids.ts',
      'no-circular: src/testing/support/circleA.ts -> src/testing/support/circleB.ts',
      'server-support-imports-below: src/testing/support/wrongLayer.ts -> src/testing/time/clock.ts',
      'server-time-imports-below: src/testing/time/wrongLayer.ts -> src/testing/contract/errors.ts',
      'server-contract-imports-below: src/testing/contract/wrongLayer.ts -> src/testing/wire/requestOutcome.ts',
      'server-wire-imports-below: src/testing/wire/wrongLayer.ts -> src/testing/state/state.ts',
      'server-state-imports-below: src/testing/state/wrongLayer.ts -> src/testing/runs/runner.ts',
      'server-runs-imports-below: src/testing/runs/wrongLayer.ts -> src/testing/harness/journal.ts',
      'server-harness-imports-below: src/testing/harness/wrongLayer.ts -> src/testing/pipeline/requestContext.ts',
      'server-pipeline-imports-below: src/testing/pipeline/wrongLayer.ts -> src/testing/handlers/index.ts',
      'server-handlers-imports-below: src/testing/handlers/wrongLayer.ts -> src/testing/mounts/fetchMount.ts',
      'server-mounts-imports-below: src/testing/mounts/wrongLayer.ts -> src/testing/fixtures/fixtures.ts',
      'server-fixtures-imports-below: src/testing/fixtures/wrongLayer.ts -> src/testing/public/ozServer.ts',
      'server-public-imports-below: src/testing/public/wrongLayer.ts -> src/testing/control/remote.ts',
      'server-parts-imports-below: src/testing/parts/wrongLayer.ts -> src/testing/control/controlPlane.ts',
      'server-control-imports-below: src/testing/control/wrongLayer.ts -> src/testing/sessions/sessionRegistry.ts',
      'server-sessions-imports-below: src/testing/sessions/wrongLayer.ts -> src/testing/server.ts',
      'server-recording-imports-below: src/testing/recording/wrongLayer.ts -> src/testing/state/state.ts',
      'server-parity-imports-below: src/testing/parity/wrongLayer.ts -> src/testing/server.ts',
      'server-builders-imports-below: src/testing/builders/wrongLayer.ts -> src/testing/server.ts',
      'nothing-imports-the-cli: src/profiles/wrongWay.ts -> src/cli/exitCodes.ts',
      'cli-uses-the-client-only: src/cli/wrongWay.ts -> src/signin/signIn.ts',
      'funcs-over-core-and-generated: src/funcs/wrongWay.ts -> src/client.ts',
      'nothing-imports-funcs: src/resources/wrongFuncs.ts -> src/funcs/ozCore.ts',
    ].sort();
    const { status, violations } = cruise(tree);
    expect(violations).toEqual(expected);
    expect(status).toBe(expected.length);
    // Every rule of the config is seen failing.
    const config = (await import(join(root, '.dependency-cruiser.cjs'))) as { default: { forbidden: { name: string }[] } };
    expect([...new Set(violations.map((v) => v.split(':')[0]))].sort()).toEqual(config.default.forbidden.map((r) => r.name).sort());
  }, 60_000);

  it('the command line builds no request itself: no fetch in src/cli, every call goes through the client', () => {
    const files = readdirSync(join(root, 'src/cli')).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(readFileSync(join(root, 'src/cli', file), 'utf8'), file).not.toMatch(/\bfetch\b|new Request\(/);
  });
});
