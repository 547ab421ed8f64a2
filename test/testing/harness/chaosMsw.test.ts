/** Chaos through msw: the same seed and requests give the same faults as in process, request by request. */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer } from '../../support/ozServer.js';
import { chaosSequence, outcomesOf, SEQUENCE_DOCUMENT } from './chaosSequence.js';

// msw patches the global fetch only between listen() and close(), inside this file.
const server = createTestServer();
const msw = setupServer(...server.handlers());
beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  msw.close();
  await server.close();
});

describe('chaos through msw (setupServer(...server.handlers()))', () => {
  it('replays the faults of a seed request by request, the same as in process; another seed gives others', async () => {
    server.chaos.set(SEQUENCE_DOCUMENT);
    const first = await chaosSequence((req) => fetch(req), server.url, server.apiKey);
    const journal = outcomesOf(server);
    expect(server.journal.entries.every((e) => e.mount === 'msw')).toBe(true);
    server.reset();
    server.chaos.set(SEQUENCE_DOCUMENT);
    expect(await chaosSequence((req) => fetch(req), server.url, server.apiKey)).toEqual(first);
    expect(outcomesOf(server)).toEqual(journal);
    expect(first).toContain('dropped');

    const inProcess = createTestServer({ apiKey: server.apiKey });
    inProcess.chaos.set(SEQUENCE_DOCUMENT);
    expect(await chaosSequence((req) => inProcess.fetch(req), inProcess.url, inProcess.apiKey)).toEqual(first);
    expect(outcomesOf(inProcess)).toEqual(journal);
    await inProcess.close();

    server.reset();
    server.chaos.set({ ...SEQUENCE_DOCUMENT, seed: 1 });
    expect(await chaosSequence((req) => fetch(req), server.url, server.apiKey)).not.toEqual(first);
  });
});
