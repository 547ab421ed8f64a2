// asResponse() hands the body over unread; withOptions() makes a client over the same transport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Oz, OzConnectionError, OzUsageError, ToolNotFoundError } from '../../src/index.js';
import type { OzServer } from '../../src/testing/index.js';
import { envelope, KEY, recordingLogger, rejectionOf } from '../core/support/clients.js';
import { ScriptedServer } from '../core/support/scriptedServer.js';
import { createTestServer } from '../support/ozServer.js';

const scripted = ScriptedServer.forSuite();

describe('asResponse()', () => {
  it('hands the Response over with its body unread: a body cut after its first part still resolves', async () => {
    const body = JSON.stringify(envelope('streamed slowly'));
    // If the SDK read the body, the cut would fail the attempt (and be retried); unread, the cut is the caller's.
    scripted.answer({ headers: { 'content-type': 'application/json' }, parts: [{ data: body.slice(0, 10) }], cutAfterParts: true });
    const response = await new Oz({ baseURL: scripted.url, apiKey: KEY, maxRetries: 0 }).tools.execute('echo', { text: 'x' }).asResponse();
    expect(response.status).toBe(200);
    expect(response.bodyUsed).toBe(false);
    expect(await rejectionOf(response.text())).toBeInstanceOf(Error);
    expect(scripted.requests).toHaveLength(1);
  });

  it('the caller reads the body; the data is then not parsed (awaiting the call is a usage error)', async () => {
    scripted.answer({ body: envelope('mine to read') });
    const call = new Oz({ baseURL: scripted.url, apiKey: KEY }).tools.execute('echo', { text: 'x' });
    const response = await call.asResponse();
    expect(await response.json()).toEqual(envelope('mine to read'));
    const error = await rejectionOf(call);
    expect(error).toBeInstanceOf(OzUsageError);
    expect((error as Error).message).toBe("asResponse() took this call's body: read it from that Response.");
  });

  it('called after the data was read, answers a Response whose body is still readable; withResponse() as before', async () => {
    scripted.answer({ body: envelope('both') }, { body: envelope('with') });
    const oz = new Oz({ baseURL: scripted.url, apiKey: KEY });
    const call = oz.tools.execute('echo', { text: 'x' });
    expect((await call).content).toBe('both');
    const late = await call.asResponse();
    expect(await late.json()).toEqual(envelope('both'));
    const { data, response } = await oz.tools.execute('echo', { text: 'y' }).withResponse();
    expect(data.content).toBe('with');
    expect(response.bodyUsed).toBe(true);
  });

  it('on a list route, and an error answer still throws its typed error', async () => {
    scripted.answer(
      { body: { data: [{ name: 'echo' }], next_cursor: null } },
      { status: 404, headers: { 'x-error-code': 'tool_not_found' }, body: { error: { code: 'tool_not_found', message: 'no' } } },
    );
    const oz = new Oz({ baseURL: scripted.url, apiKey: KEY });
    const listed = await oz.tools.list().asResponse();
    expect(await listed.json()).toEqual({ data: [{ name: 'echo' }], next_cursor: null });
    expect(await rejectionOf(oz.tools.get('nope').asResponse())).toBeInstanceOf(ToolNotFoundError);
  });
});

describe('asResponse() against the embedded server', () => {
  let server: OzServer;
  beforeAll(() => {
    server = createTestServer();
  });
  afterAll(() => server.close());

  it('gives the unread answer of a call on any wire', async () => {
    const oz = new Oz({ baseURL: server.url, apiKey: server.apiKey, fetch: server.fetch, logLevel: 'off' });
    const response = await oz.tools.execute('echo', { text: 'raw' }, { format: 'text' }).asResponse();
    expect(response.bodyUsed).toBe(false);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('raw');
  });
});

describe('withOptions()', () => {
  it('shares the transport: the same key provider (asked once per call, by either client) and one call count', async () => {
    scripted.fallback = () => ({ body: envelope('ok') });
    const logger = recordingLogger();
    let asked = 0;
    const parent = new Oz({ baseURL: scripted.url, apiKey: () => (asked++, KEY), logger, logLevel: 'debug' });
    const child = parent.withOptions({ timeout: 5_000, defaultHeaders: { 'x-child': '1' } });
    await parent.tools.get('echo');
    await child.tools.get('echo');
    expect(asked).toBe(2);
    const tags = logger.lines.filter((l) => l.level === 'debug' && l.message.includes(' GET ')).map((l) => /#(\d+)\]/.exec(l.message)![1]);
    expect(tags).toEqual(['1', '2']);
    expect(scripted.requests.map((r) => r.headers['x-child'])).toEqual([undefined, '1']);
    expect(child.timeout).toBe(5_000);
    expect(parent.timeout).toBe(600_000);
  });

  it('keeps the parent client as it was', async () => {
    scripted.answer({ destroy: true }, { body: envelope('parent retried') });
    const parent = new Oz({ baseURL: scripted.url, apiKey: KEY, retry: { initialDelayMs: 1 } });
    const child = parent.withOptions({ maxRetries: 0 });
    expect(child.maxRetries).toBe(0);
    expect((await parent.tools.execute('echo', { text: 'x' })).content).toBe('parent retried');
    scripted.answer({ destroy: true });
    expect(await rejectionOf(child.tools.execute('echo', { text: 'x' }))).toBeInstanceOf(OzConnectionError);
  });

  it("takes the options a call may no longer give (no deprecation warning), where the call's warns", async () => {
    scripted.fallback = () => ({ body: envelope('ok') });
    const logger = recordingLogger();
    const oz = new Oz({ baseURL: scripted.url, apiKey: KEY, logger, logLevel: 'warn' });
    const other = 'ozk_OtherKey0123456789abcdefghijklmno';
    await oz.withOptions({ apiKey: other, authHeader: 'x-api-key' }).tools.execute('echo', { text: 'x' });
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([]);
    await oz.tools.execute('echo', { text: 'x' }, { apiKey: other });
    expect(logger.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
      expect.stringMatching(/^options\.apiKey on a call is deprecated: .*oz\.withOptions\(\{ apiKey \}\)/),
    ]);
    expect(scripted.requests.map((r) => r.headers['x-api-key'] ?? r.headers.authorization)).toEqual([other, `Bearer ${other}`]);
  });
});
