/**
 * The soak's hostile client (issue 22): beside the faulty network, one client that sends what an attacker or a
 * careless fuzzer would, over raw sockets and fetch, while the honest clients run: bodies over the bound, YAML
 * bombs, slow and idle connections, foreign `Host`s, a backtracking fault pattern. Each action's answer is
 * checked (an unexpected one is a problem); the process's RSS is sampled throughout.
 */
import { connect, type Socket } from 'node:net';
import type { OzListener, OzServer } from '../../../src/testing/index.js';

/** What the hostile client did, and what went wrong. */
export interface HostileFigures {
  oversizeBodies: number;
  yamlBombs: number;
  slowConnections: number;
  idleConnections: number;
  foreignHosts: number;
  badPatterns: number;
  /** Answers that were not the refusal expected: must be 0 (`unexpectedAnswers` lists them). */
  unexpected: number;
  unexpectedAnswers: string[];
  /** The highest resident set size seen during the soak, in MiB. */
  rssMaxMiB: number;
}

const BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
].join('\n  ');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends a head and a streamed body of `bytes`, until the server answers or closes: the answer's status (0 when none). */
function streamed(port: number, head: string, bytes: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let data = '';
    let status = 0;
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1');
      if (status === 0 && data.includes('\r\n')) status = Number(data.slice(9, 12));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(status));
    socket.write(head);
    const chunk = Buffer.concat([Buffer.from('10000\r\n'), Buffer.alloc(0x10000, 'a'), Buffer.from('\r\n')]);
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes && status === 0 && !socket.destroyed) {
        sent += 0x10000;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (bytes > 0 && status === 0 && !socket.destroyed) socket.end('0\r\n\r\n');
    };
    pump();
  });
}

/** Opens `n` keep-alive connections that ask nothing (or half a head when `slow`), holds them `ms`, closes them. */
async function holdConnections(port: number, n: number, ms: number, slow: boolean): Promise<void> {
  const sockets: Socket[] = [];
  for (let i = 0; i < n; i++) {
    const s = connect({ host: '127.0.0.1', port });
    s.on('error', () => undefined);
    if (slow) s.write(`GET /health HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`);
    sockets.push(s);
  }
  await sleep(ms);
  for (const s of sockets) s.destroy();
}

/** Runs the hostile client until `done()` says the honest clients finished. */
export async function runHostileClient(server: OzServer, listener: OzListener, done: () => boolean): Promise<HostileFigures> {
  const figures: HostileFigures = {
    oversizeBodies: 0,
    yamlBombs: 0,
    slowConnections: 0,
    idleConnections: 0,
    foreignHosts: 0,
    badPatterns: 0,
    unexpected: 0,
    unexpectedAnswers: [],
    rssMaxMiB: 0,
  };
  const port = listener.port;
  const key = { authorization: `Bearer ${server.apiKey}` };
  const admin = { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' };
  const expect = (status: number, wanted: number, what: string) => {
    if (status === wanted) return;
    figures.unexpected++;
    if (figures.unexpectedAnswers.length < 10) figures.unexpectedAnswers.push(`${what}: ${status}, not ${wanted}`);
  };
  const sample = setInterval(() => (figures.rssMaxMiB = Math.max(figures.rssMaxMiB, Math.round(process.memoryUsage().rss / 1048576))), 100);
  try {
    for (let round = 0; !done(); round++) {
      switch (round % 6) {
        case 0:
          // 12 MiB streamed with a key: 413 past 10 MiB, the connection closed.
          expect(
            await streamed(
              port,
              `POST /v1/tools/echo/execute HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${server.apiKey}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
              12 * 1048576,
            ),
            413,
            'oversize body',
          );
          figures.oversizeBodies++;
          break;
        case 1: {
          const res = await fetch(`${listener.url}/v1/workflows/execute`, {
            method: 'POST',
            headers: { ...key, 'content-type': 'application/yaml' },
            body: `tasks: []\ninput:\n  ${BOMB}\n`,
          });
          await res.arrayBuffer();
          expect(res.status, 400, 'YAML bomb');
          figures.yamlBombs++;
          break;
        }
        case 2:
          await holdConnections(port, 20, 300, true);
          figures.slowConnections += 20;
          break;
        case 3:
          await holdConnections(port, 200, 300, false);
          figures.idleConnections += 200;
          break;
        case 4:
          // A rebound page's Host: 403 before the key is looked at.
          expect(await streamed(port, `GET /health HTTP/1.1\r\nhost: evil.example:${port}\r\nconnection: close\r\n\r\n`, 0), 403, 'foreign Host');
          figures.foreignHosts++;
          break;
        case 5: {
          const added = await fetch(`${listener.url}/_oz/faults`, {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ type: 'drop', pathPattern: '^/v1/tools/hostile(a+)+$' }),
          });
          const { id } = (await added.json()) as { id: string };
          expect(added.status, 201, 'bad pattern added');
          const probe = await fetch(`${listener.url}/v1/tools/hostile${'a'.repeat(40)}!`, { headers: key });
          await probe.arrayBuffer();
          expect(probe.status, 404, 'bad pattern probed');
          await (await fetch(`${listener.url}/_oz/faults/${id}`, { method: 'DELETE', headers: admin })).arrayBuffer();
          figures.badPatterns++;
          break;
        }
      }
    }
  } finally {
    clearInterval(sample);
  }
  return figures;
}
