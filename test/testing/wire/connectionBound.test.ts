/**
 * At the per-address connection bound the listener closes its idle keep-alive connections, oldest first, to serve
 * a new one (the contract's "Money and trust at the edges"): one client's idle connections never lock the other
 * clients of 127.0.0.1 out. A connection past the bound while every one is busy is closed. Real loopback sockets.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { OzListener, OzServer } from '../../../src/testing/index.js';
import { createTestServer } from '../../support/ozServer.js';

const BOUND = 4;
let server: OzServer | undefined;
let listener: OzListener | undefined;
const opened: Socket[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) s.destroy();
  await listener?.close();
  listener = undefined;
  await server?.close();
  server = undefined;
});

/** A keep-alive connection that sent one GET /v1/tools; resolves with the socket and the answer's status line. */
function keepAliveRequest(port: number, key: string): Promise<{ socket: Socket; statusLine: Promise<string>; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    opened.push(socket);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('error', () => undefined);
    socket.once('connect', () => {
      let text = '';
      const statusLine = new Promise<string>((done) => {
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString('latin1');
          if (text.includes('\r\n')) done(text.slice(0, text.indexOf('\r\n')));
        });
        socket.once('close', () => done(text === '' ? '(closed)' : text.slice(0, text.indexOf('\r\n'))));
      });
      socket.write(`GET /v1/tools HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nConnection: keep-alive\r\n\r\n`);
      resolve({ socket, statusLine, closed });
    });
    socket.once('error', reject);
  });
}

describe('the per-address connection bound', () => {
  it('idle keep-alive connections past the bound are closed oldest first; every new client is served', async () => {
    server = createTestServer({ maxConnectionsPerAddress: BOUND });
    listener = await server.listen({ host: '127.0.0.1' });
    const port = Number(new URL(listener.url).port);
    const connections: Array<Awaited<ReturnType<typeof keepAliveRequest>>> = [];
    for (let i = 0; i < 40; i++) {
      const c = await keepAliveRequest(port, server.apiKey);
      // Each one is answered, though the bound was reached long ago: an idle one made room.
      expect(await c.statusLine, `connection ${i}`).toBe('HTTP/1.1 200 OK');
      connections.push(c);
    }
    // The oldest were closed; the newest BOUND stay open.
    await Promise.all(connections.slice(0, 40 - BOUND).map((c) => c.closed));
    expect(connections.slice(40 - BOUND).every((c) => !c.socket.destroyed && c.socket.readyState === 'open')).toBe(true);
    // Another client of 127.0.0.1 (a fresh fetch) is served too.
    const res = await fetch(`${listener.url}/v1/tools`, { headers: { authorization: `Bearer ${server.apiKey}`, connection: 'close' } });
    expect(res.status).toBe(200);
  });

  it('with every connection busy, a connection past the bound is closed unanswered; once one is idle it is served', async () => {
    server = createTestServer({ maxConnectionsPerAddress: BOUND });
    listener = await server.listen({ host: '127.0.0.1' });
    const port = Number(new URL(listener.url).port);
    let release!: () => void;
    const gate = new Promise<void>((done) => (release = done));
    server.stubs.add({ operationId: 'listTools', respond: async () => void (await gate), times: BOUND });
    const busy = await Promise.all(Array.from({ length: BOUND }, () => keepAliveRequest(port, server!.apiKey)));
    // Each busy request reached its stub before the next connection comes.
    while (server.journal.filter({ operationId: 'listTools' }).length < BOUND) await new Promise((r) => setTimeout(r, 5));
    const refused = await keepAliveRequest(port, server.apiKey);
    expect(await refused.statusLine).toBe('(closed)');
    release();
    for (const c of busy) expect(await c.statusLine).toBe('HTTP/1.1 200 OK');
    const served = await keepAliveRequest(port, server.apiKey);
    expect(await served.statusLine).toBe('HTTP/1.1 200 OK');
  });
});
