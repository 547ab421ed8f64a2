/** The poll interval an unfinished execution suggests: on a frozen clock, the SDK's floor (50 ms), not a busy poll. */
import { describe, expect, it } from 'vitest';
import { MIN_POLL_MS } from '../../../src/core/executions/executionPoller.js';
import { testServersForSuite } from '../../support/ozServer.js';

const servers = testServersForSuite();

describe('the suggested poll interval', () => {
  it("on a frozen clock is the SDK's floor", async () => {
    const server = servers.create({ clock: { frozen: true } });
    const auth = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
    const started = await server.fetch(`${server.url}/v1/tools/slow/execute`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ ms: 1000, async: true }),
    });
    const { execution_id: id } = (await started.json()) as { execution_id: string };
    const record = await server.fetch(`${server.url}/v1/executions/${id}`, { headers: auth });
    expect((await record.json()) as { status: string }).toMatchObject({ status: expect.stringMatching(/queued|running/) });
    expect(MIN_POLL_MS).toBe(50);
    expect(Number(record.headers.get('retry-after-ms'))).toBe(MIN_POLL_MS);
    await server.clock.advance(1000);
    await server.idle();
  });
});
