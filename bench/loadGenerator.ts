import { connect, type Socket } from 'node:net';

/** One request, sent again and again. */
export interface LoadRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What a load run measured. */
export interface LoadResult {
  /** Answers with a 2xx status received before the deadline. */
  readonly ok: number;
  /** Answers with another status. */
  readonly failed: number;
  readonly seconds: number;
  /** 2xx answers per second. */
  readonly perSecond: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * A closed-loop load generator on raw keep-alive sockets: `connections` connections to 127.0.0.1, each sending
 * the same pre-encoded HTTP/1.1 request again as soon as the previous answer is complete, for `seconds`. It only
 * frames the answers (status, `content-length` or chunked), so it costs far less CPU than the servers it loads
 * and measures their rate, not its own.
 */
export async function generateLoad(baseURL: string, request: LoadRequest, options: { connections: number; seconds: number }): Promise<LoadResult> {
  const url = new URL(baseURL);
  if (url.hostname !== '127.0.0.1') throw new Error(`The load generator only loads 127.0.0.1, not ${url.hostname}`);
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const lines = [`${request.method} ${request.path} HTTP/1.1`, `host: ${url.host}`, 'connection: keep-alive'];
  for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const wire = Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body ?? Buffer.alloc(0)]);

  let ok = 0;
  let failed = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const runs: Promise<void>[] = [];
  for (let i = 0; i < options.connections; i++) {
    runs.push(
      runConnection(Number(url.port), wire, deadline, (status) => {
        if (performance.now() > deadline) return;
        if (status >= 200 && status < 300) ok++;
        else failed++;
      }),
    );
  }
  await Promise.all(runs);
  const seconds = options.seconds;
  return { ok, failed, seconds, perSecond: ok / seconds };
}

function runConnection(port: number, wire: Buffer, deadline: number, onAnswer: (status: number) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const socket: Socket = connect({ port, host: '127.0.0.1', noDelay: true });
    let pending: Buffer = Buffer.alloc(0);
    const safety = setTimeout(() => socket.destroy(new Error('load run overran its deadline by 30 s')), deadline - performance.now() + 30_000);
    socket.on('connect', () => socket.write(wire));
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        const framed = frame(pending);
        if (!framed) return;
        pending = pending.subarray(framed.length);
        onAnswer(framed.status);
        if (performance.now() >= deadline) {
          socket.end();
          return;
        }
        socket.write(wire);
      }
    });
    socket.on('error', (error) => {
      clearTimeout(safety);
      reject(error);
    });
    socket.on('close', () => {
      clearTimeout(safety);
      resolve();
    });
  });
}

/** The status and length of the first complete answer in `data`, or undefined while it is incomplete. */
function frame(data: Buffer): { status: number; length: number } | undefined {
  const headEnd = data.indexOf(HEAD_END);
  if (headEnd < 0) return undefined;
  const head = data.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const lengthMatch = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (lengthMatch) {
    const end = bodyStart + Number(lengthMatch[1]);
    return data.length >= end ? { status, length: end } : undefined;
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    let at = bodyStart;
    for (;;) {
      const lineEnd = data.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = parseInt(data.toString('latin1', at, lineEnd), 16);
      const next = lineEnd + 2 + size + 2;
      if (data.length < next) return undefined;
      if (size === 0) return { status, length: next };
      at = next;
    }
  }
  // 204/304 or a head without a body.
  return { status, length: bodyStart };
}
