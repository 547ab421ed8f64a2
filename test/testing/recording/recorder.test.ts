/**
 * The recording proxy on real loopback sockets, against a small target the test drives: a stream goes through
 * event by event (the next event is only sent once the first reached the caller), a large answer streams through
 * whole while the recording keeps a bounded part and says so, keys read `<redacted>`, an unreachable target
 * answers 502 `upstream_error`, and a caller that leaves mid-stream is recorded as cut.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startRecorder, type Recorder } from '../../../src/testing/recording/recorder.js';
import type { Har } from '../../../src/testing/recording/har.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

async function target(handler: Handler): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  open.push({ close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function recorder(targetUrl: string, maxRecordedBytes?: number): Promise<Recorder> {
  const r = await startRecorder({ target: targetUrl, outDir: mkdtempSync(join(tmpdir(), 'oz-rec-')), ...(maxRecordedBytes ? { maxRecordedBytes } : {}) });
  return r;
}

const readHar = (r: Recorder) => JSON.parse(readFileSync(r.harPath, 'utf8')) as Har;

describe('startRecorder', () => {
  it('passes a stream through event by event, unchanged, and records it whole with keys redacted', async () => {
    let sendRest!: () => void;
    const rest = new Promise<void>((r) => (sendRest = r));
    const url = await target((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_1' });
      res.write('event: token\ndata: {"delta":"one"}\n\n');
      void rest.then(() => res.end('event: result\ndata: {"ok":true}\n\n'));
    });
    const r = await recorder(url);
    const response = await fetch(`${r.url}/v1/execute?x=1`, {
      method: 'POST',
      headers: { 'x-api-key': 'ozk_SecretSecretSecretSecretSecret01', 'content-type': 'application/json' },
      body: '{"agent":"writer","stream":true}',
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    // The first event arrives while the target still holds the rest: the recorder did not wait for the end.
    expect(decoder.decode((await reader.read()).value)).toBe('event: token\ndata: {"delta":"one"}\n\n');
    sendRest();
    let tail = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) tail += decoder.decode(chunk.value);
    expect(tail).toBe('event: result\ndata: {"ok":true}\n\n');
    const summary = await r.close();
    expect(summary).toMatchObject({ exchanges: 1, stubs: 1, leftOut: [] });
    const [entry] = readHar(r).log.entries;
    // The events as they came, with the wait before each: the second came when the target sent it.
    expect(entry!.response._events?.map((e) => [e.event, e.data])).toEqual([
      ['token', '{"delta":"one"}'],
      ['result', '{"ok":true}'],
    ]);
    expect(entry!.response._events![1]!.delayMs).toBeGreaterThanOrEqual(0);
    const [stub] = JSON.parse(readFileSync(r.stubsPath, 'utf8')) as Array<{
      operationId: string;
      match: unknown;
      answer: { status: number; events: Array<{ event: string; data: unknown }> };
    }>;
    expect(stub).toMatchObject({
      operationId: 'executeAgent',
      match: { query: { x: '1' } },
      answer: {
        status: 200,
        events: [
          { event: 'token', data: { delta: 'one' } },
          { event: 'result', data: { ok: true } },
        ],
      },
    });
    expect(entry!._operationId).toBe('executeAgent');
    expect(entry!.request.headers.find((h) => h.name === 'x-api-key')?.value).toBe('<redacted>');
    expect(entry!.request.queryString).toEqual([{ name: 'x', value: '1' }]);
    expect(entry!.request.postData?.text).toBe('{"agent":"writer","stream":true}');
    expect(entry!.response.content.text).toBe('event: token\ndata: {"delta":"one"}\n\nevent: result\ndata: {"ok":true}\n\n');
    expect(readFileSync(r.harPath, 'utf8')).not.toContain('SecretSecret');
  });

  it('streams a large answer through whole and records only its first bytes, saying so', async () => {
    const size = 3 * 1024 * 1024;
    const url = await target((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`"${'x'.repeat(size - 2)}"`);
    });
    const r = await recorder(url, 1024);
    const body = await (await fetch(`${r.url}/v1/tools`, { headers: { authorization: 'Bearer ozk_SecretSecretSecretSecretSecret02' } })).text();
    expect(body.length).toBe(size);
    await r.close();
    const [entry] = readHar(r).log.entries;
    expect(entry!.response.content.size).toBe(size);
    expect(entry!.response.content.text).toHaveLength(1024);
    expect(entry!.response.content.comment).toBe(`only the first 1024 of ${size} bytes are recorded`);
    expect(entry!.request.headers.find((h) => h.name === 'authorization')?.value).toBe('<redacted>');
  });

  it("records the request headers as forwarded: the target's Host, identity encoding, no hop-by-hop header", async () => {
    let received: http.IncomingHttpHeaders = {};
    const url = await target((req, res) => {
      received = req.headers;
      res.end('{}');
    });
    const r = await recorder(url);
    await (await fetch(`${r.url}/v1/tools`, { headers: { 'x-trace-id': 'trc_1', 'accept-encoding': 'gzip, br', connection: 'keep-alive' } })).text();
    await r.close();
    const [entry] = readHar(r).log.entries;
    const recorded = Object.fromEntries(entry!.request.headers.map((h) => [h.name.toLowerCase(), h.value]));
    expect(recorded.host).toBe(new URL(url).host);
    expect(recorded.host).not.toBe(new URL(r.url).host);
    expect(recorded['accept-encoding']).toBe('identity');
    expect(recorded.connection).toBeUndefined();
    // Every recorded header is one the target got, with the value it got.
    for (const [name, value] of Object.entries(recorded)) expect([name, received[name]]).toEqual([name, value]);
    expect(entry!.request.url).toBe(`${url}/v1/tools`);
  });

  it('answers 502 upstream_error when the target cannot be reached, and records why', async () => {
    const gone = await target(() => {});
    await open.pop()!.close();
    const r = await recorder(gone);
    const response = await fetch(`${r.url}/v1/tools`);
    expect(response.status).toBe(502);
    expect(response.headers.get('x-error-code')).toBe('upstream_error');
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('upstream_error');
    await r.close();
    const [entry] = readHar(r).log.entries;
    expect(entry!.response.status).toBe(0);
    expect(entry!.comment).toMatch(/^the target could not be reached: ECONNREFUSED/);
  });

  it('records an endless answer the caller left as cut, and stops asking the target', async () => {
    let targetClosed!: () => void;
    const closedAtTarget = new Promise<void>((r) => (targetClosed = r));
    const url = await target((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const tick = setInterval(() => res.write(': ping\n\n'), 5);
      res.on('close', () => {
        clearInterval(tick);
        targetClosed();
      });
    });
    const r = await recorder(url, 64);
    const controller = new AbortController();
    const response = await fetch(`${r.url}/v1/workflows/execute-stream`, { method: 'POST', body: '{}', signal: controller.signal });
    const reader = response.body!.getReader();
    let seen = 0;
    while (seen < 1000) seen += (await reader.read()).value?.length ?? 0;
    controller.abort();
    await closedAtTarget;
    await expect.poll(() => readHar(r).log.entries.length).toBe(1);
    const [entry] = readHar(r).log.entries;
    expect(entry!.comment).toBe('the caller left before the answer ended');
    expect(entry!.response.content.text).toHaveLength(64);
    expect(entry!.response.content.size).toBeGreaterThanOrEqual(1000);
    await r.close();
  });

  it('refuses a target that is not an http URL', async () => {
    await expect(startRecorder({ target: 'ftp://example.com', outDir: mkdtempSync(join(tmpdir(), 'oz-rec-')) })).rejects.toThrow(/http or https URL/);
  });
});
