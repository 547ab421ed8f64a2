import { describe, expect, it } from 'vitest';
import { Oz } from '../../../src/index.js';
import { Transport } from '../../../src/core/transport.js';
import { listPages } from '../../../src/core/result/pagination.js';
import type { Operation } from '../../../src/core/shared/operation.js';
import { OPERATIONS } from '../../../src/generated/operations.js';
import { KEY, recordingLogger, TRANSPORT_PARTS } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite(() => ({ body: { name: 'echo', description: 'x', data: [], next_cursor: null } }));
const warnings = (log: ReturnType<typeof recordingLogger>) => log.lines.filter((l) => l.level === 'warn').map((l) => l.message);

/** A transport over the scripted server, as the generated methods use it, with operations the test marks deprecated. */
function transportWith(log: ReturnType<typeof recordingLogger>): Transport {
  return new Transport({ baseURL: server.url, apiKey: KEY, ...TRANSPORT_PARTS, logger: log, maxRetries: 0 });
}

// Each expectation reads the logger's lines right after the call's `await`: a warning is written before the call's
// promise settles.
describe('deprecation: one warning per process, through the client logger', () => {
  it('an operation marked deprecated (the operations table): one warning on first use, none after, none on other operations', async () => {
    const log = recordingLogger();
    const transport = transportWith(log);
    const deprecated: Operation = { ...OPERATIONS.getTool, id: 'getToolOld', deprecated: true };
    await transport.request(deprecated, { path: { tool: 'echo' } });
    await transport.request(deprecated, { path: { tool: 'echo' } });
    await transportWith(log).request(deprecated, { path: { tool: 'echo' } });
    await transport.request(OPERATIONS.getTool, { path: { tool: 'echo' } });
    expect(warnings(log)).toEqual(["[oz] getToolOld (GET /v1/tools/{tool}) is deprecated in the API's description and may be removed."]);
  });

  it('a deprecated parameter: a warning only once a call sends it', async () => {
    const log = recordingLogger();
    const transport = transportWith(log);
    const op: Operation = {
      ...OPERATIONS.listTools,
      id: 'listToolsOldLimit',
      deprecatedParams: [
        { name: 'limit', in: 'query' },
        { name: 'x-old', in: 'header' },
      ],
    };
    await listPages(transport, op, { query: {} });
    expect(warnings(log)).toEqual([]);
    await listPages(transport, op, { query: { limit: 5 } });
    await listPages(transport, op, { query: { limit: 6 } });
    await listPages(transport, op, { query: {} }, { headers: { 'x-old': '1' } });
    expect(warnings(log)).toEqual([
      '[oz] The query parameter "limit" of listToolsOldLimit is deprecated in the API\'s description and may be removed.',
      '[oz] The header parameter "x-old" of listToolsOldLimit is deprecated in the API\'s description and may be removed.',
    ]);
  });

  it('a Deprecation or Sunset answer header: one warning per operation, naming the date and the link', async () => {
    const log = recordingLogger();
    const oz = new Oz({ baseURL: server.url, apiKey: KEY, logger: log, maxRetries: 0 });
    const deprecatedAnswer = {
      headers: { deprecation: '@1798761600', sunset: 'Wed, 01 Dec 2027 00:00:00 GMT', link: '<https://oz.example/changes>; rel="deprecation"' },
      body: { name: 'echo', description: 'x' },
    };
    server.answer(deprecatedAnswer, deprecatedAnswer, { headers: { sunset: 'Wed, 01 Dec 2027 00:00:00 GMT' }, body: { data: [], next_cursor: null } });
    await oz.tools.get('echo');
    await oz.tools.get('echo');
    await oz.tools.list();
    await oz.tools.list();
    expect(warnings(log)).toEqual([
      '[oz] The service says getTool (GET /v1/tools/{tool}) is deprecated (Deprecation: @1798761600); it stops working at Wed, 01 Dec 2027 00:00:00 GMT (Sunset). See <https://oz.example/changes>; rel="deprecation".',
      '[oz] The service says listTools (GET /v1/tools) is deprecated; it stops working at Wed, 01 Dec 2027 00:00:00 GMT (Sunset).',
    ]);
  });

  it('logLevel off silences it', async () => {
    const log = recordingLogger();
    const oz = new Oz({ baseURL: server.url, apiKey: KEY, logger: log, logLevel: 'off', maxRetries: 0 });
    // An operation not warned about yet in this process (the warnings above were for getTool and listTools).
    server.answer({ headers: { deprecation: 'true' }, body: { name: 'writer', description: 'x' } });
    await oz.agents.get('writer');
    expect(log.lines).toEqual([]);
  });
});
