import { connect, Server as NetServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Oz, signIn, SignInError, type SignInOptions, type SignInResult } from '../../src/index.js';
import type { OzListener, OzServer } from '../../src/testing/index.js';
import { createTestServer, takeViolations } from '../support/ozServer.js';
import { SIGN_IN_ANSWER_MAX_BYTES } from '../../src/signin/signInFlow.js';

/** How many listening TCP servers the process holds. */
function tcpServers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
}

/** The process's listening servers (Node's handle list: signIn keeps its server to itself). */
function listeningServers(): NetServer[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.filter((h): h is NetServer => h instanceof NetServer && h.listening);
}

/** Resolves with the error code of a connection attempt to 127.0.0.1:port (`connected` if it connects). */
function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? String(err)));
  });
}

/** The browser's first step: opens the authorize URL and answers where the dashboard redirects it. */
async function authorize(url: string): Promise<URL> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!);
}

/** The browser's second step: opens the callback on the SDK's listener. */
async function openCallback(url: URL | string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { headers: { connection: 'close' } });
  return { status: res.status, text: await res.text() };
}

function failureOf(promise: Promise<unknown>): Promise<SignInError> {
  return promise.then(
    () => {
      throw new Error('signIn resolved');
    },
    (err: unknown) => {
      expect(err).toBeInstanceOf(SignInError);
      return err as SignInError;
    },
  );
}

let server: OzServer;
let listener: OzListener;
let baseline: number;

beforeEach(async () => {
  // A closed server's handle leaves the list a moment after its close callback: wait for the last test's.
  await vi.waitFor(() => expect(tcpServers()).toBe(0));
  // A frozen clock: a code's 120 s move only with clock.advance.
  server = createTestServer({ clock: { frozen: true } });
  listener = await server.listen();
  baseline = tcpServers();
  expect(baseline).toBe(2); // the API and the MCP server
});

afterEach(async () => {
  await listener.close();
  await server.close();
  expect(await takeViolations()).toEqual([]);
});

/**
 * Runs signIn against the embedded dashboard; `browser` plays the user's browser with the authorize URL (not
 * awaited by signIn). Answers the outcome and the port signIn listened on.
 */
async function run(
  browser: (authorizeUrl: string, port: number) => Promise<void>,
  options: Partial<SignInOptions> = {},
): Promise<{ outcome: Promise<SignInResult>; port: () => number; browsing: () => Promise<void> }> {
  let port = 0;
  let browsing: Promise<void> = Promise.resolve();
  const outcome = signIn({
    dashboardURL: listener.dashboardUrl,
    onAuthorizeURL: (url) => {
      port = Number(new URL(url).searchParams.get('port'));
      // The listener is up while the user is at the dashboard: one more TCP server than before.
      expect(tcpServers()).toBe(baseline + 1);
      browsing = browser(url, port);
    },
    ...options,
  });
  return { outcome, port: () => port, browsing: () => browsing };
}

async function expectClosed(port: number): Promise<void> {
  expect(port).toBeGreaterThan(0);
  expect(await connectOutcome(port)).toBe('ECONNREFUSED');
  await vi.waitFor(() => expect(tcpServers()).toBe(baseline));
}

describe('signIn against the embedded server’s dashboard (real sockets)', () => {
  it('signs in end to end: authorize, redirect to the callback, exchange; the new key works', async () => {
    let bound: unknown;
    let callbackAnswer: { status: number; text: string } | undefined;
    const { outcome, port, browsing } = await run(async (url, p) => {
      bound = listeningServers()
        .find((s) => (s.address() as AddressInfo).port === p)
        ?.address();
      const callback = await authorize(url);
      expect(callback.origin).toBe(`http://127.0.0.1:${new URL(url).searchParams.get('port')}`);
      expect(callback.pathname).toBe('/callback');
      expect(callback.searchParams.get('state')).toBe(new URL(url).searchParams.get('state'));
      callbackAnswer = await openCallback(callback);
    });
    const result = await outcome;
    await browsing();

    expect(callbackAnswer).toEqual({ status: 200, text: expect.stringMatching(/Signed in/) });
    expect(result).toEqual({ key: expect.stringMatching(/^ozk_[A-Za-z0-9]{32}$/), name: 'cli sign-in', tier: 'pro', expires_at: expect.any(String) });
    expect(Date.parse(result.expires_at!) - server.clock.now()).toBe(90 * 86_400_000);
    // The listener bound 127.0.0.1 and nothing else.
    expect(bound).toEqual({ address: '127.0.0.1', family: 'IPv4', port: port() });
    await expectClosed(port());

    const oz = new Oz({ baseURL: listener.url, mcpURL: listener.mcpUrl, apiKey: result.key, logLevel: 'off' });
    const me = await oz.whoami();
    expect(me.key_label).toBe('cli sign-in');
    expect(me.tier).toBe('pro');
  });

  it('the authorize URL carries the port and a fresh random state each time', async () => {
    const states: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { outcome, browsing } = await run(async (url) => {
        states.push(new URL(url).searchParams.get('state')!);
        await openCallback(await authorize(url));
      });
      await outcome;
      await browsing();
      await vi.waitFor(() => expect(tcpServers()).toBe(baseline));
    }
    expect(states[0]).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(states[0]).not.toBe(states[1]);
  });

  it('refuses a callback with another state (400) and keeps waiting for the right one', async () => {
    const answers: { status: number; text: string }[] = [];
    const { outcome, port, browsing } = await run(async (url, p) => {
      const callback = await authorize(url);
      const forged = new URL(callback);
      forged.searchParams.set('state', 'someone-else');
      answers.push(await openCallback(forged));
      answers.push(await openCallback(`http://127.0.0.1:${p}/callback?code=${callback.searchParams.get('code')}`));
      answers.push(await openCallback(`http://127.0.0.1:${p}/elsewhere`));
      answers.push(await openCallback(callback));
    });
    const result = await outcome;
    await browsing();
    expect(answers.map((a) => a.status)).toEqual([400, 400, 404, 200]);
    expect(answers[0]!.text).toMatch(/does not match/);
    expect(result.key).toMatch(/^ozk_/);
    await expectClosed(port());
  });

  it('a reused code: the exchange answers 400 code_used and signIn fails with exchange_failed', async () => {
    const { outcome, port } = await run(async (url) => {
      const callback = await authorize(url);
      const first = await fetch(`${listener.dashboardUrl}/api/cli/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: callback.searchParams.get('code') }),
      });
      expect(first.status).toBe(200);
      await openCallback(callback);
    });
    const err = await failureOf(outcome);
    expect(err.reason).toBe('exchange_failed');
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/400: This code was exchanged already/);
    await expectClosed(port());
  });

  it('an expired code (the server’s clock past 120 s): exchange_failed', async () => {
    const { outcome, port } = await run(async (url) => {
      const callback = await authorize(url);
      await server.clock.advance(120_001);
      await openCallback(callback);
    });
    const err = await failureOf(outcome);
    expect(err.reason).toBe('exchange_failed');
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/older than 120 seconds/);
    await expectClosed(port());
  });

  it('a code still works at 120 s', async () => {
    const { outcome, browsing } = await run(async (url) => {
      const callback = await authorize(url);
      await server.clock.advance(120_000);
      await openCallback(callback);
    });
    expect((await outcome).key).toMatch(/^ozk_/);
    await browsing();
  });

  it('the user refuses at the dashboard: SignInError denied', async () => {
    server.dashboard.signInAs(null);
    let answer: { status: number; text: string } | undefined;
    const { outcome, port, browsing } = await run(async (url) => {
      const callback = await authorize(url);
      expect(callback.searchParams.get('error')).toBe('access_denied');
      expect(callback.searchParams.has('code')).toBe(false);
      answer = await openCallback(callback);
    });
    const err = await failureOf(outcome);
    await browsing();
    expect(err.reason).toBe('denied');
    expect(answer?.status).toBe(200);
    await expectClosed(port());
  });

  it('times out without a callback: SignInError timeout, listener closed', async () => {
    const { outcome, port } = await run(() => Promise.resolve(), { timeout: 30 });
    const err = await failureOf(outcome);
    expect(err.reason).toBe('timeout');
    await expectClosed(port());
  });

  it('an abort while waiting: SignInError aborted, listener closed', async () => {
    const controller = new AbortController();
    const { outcome, port } = await run(() => Promise.resolve(void setTimeout(() => controller.abort(), 10)), { signal: controller.signal });
    const err = await failureOf(outcome);
    expect(err.reason).toBe('aborted');
    await expectClosed(port());
  });

  it('an abort during the token exchange: SignInError aborted', async () => {
    const controller = new AbortController();
    const { outcome, port } = await run(async (url) => void (await openCallback(await authorize(url))), {
      signal: controller.signal,
      fetch: (_input, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error));
          controller.abort();
        }),
    });
    const err = await failureOf(outcome);
    expect(err.reason).toBe('aborted');
    await expectClosed(port());
  });

  it('an already aborted signal: SignInError aborted before any listener', async () => {
    const controller = new AbortController();
    controller.abort();
    const onAuthorizeURL = vi.fn();
    const err = await failureOf(signIn({ dashboardURL: listener.dashboardUrl, signal: controller.signal, onAuthorizeURL }));
    expect(err.reason).toBe('aborted');
    expect(onAuthorizeURL).not.toHaveBeenCalled();
    expect(tcpServers()).toBe(baseline);
  });

  it('never logs the key: the default prints only the authorize URL to stderr', async () => {
    const written: string[] = [];
    const capture = (chunk: unknown): boolean => {
      written.push(String(chunk));
      return true;
    };
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const consoles = (['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void written.push(args.map(String).join(' '))),
    );
    let result: SignInResult;
    try {
      const outcome = signIn({ dashboardURL: listener.dashboardUrl });
      await vi.waitFor(() => expect(written.join('')).toMatch(/Open this URL to sign in/));
      const url = /(http:\/\/\S+)/.exec(written.join(''))![1]!;
      await openCallback(await authorize(url));
      result = await outcome;
    } finally {
      for (const spy of [stderr, stdout, ...consoles]) spy.mockRestore();
    }
    expect(written.join('')).toContain(`${listener.dashboardUrl}/api/cli/authorize?port=`);
    expect(written.join('')).not.toContain(result.key);
    await vi.waitFor(() => expect(tcpServers()).toBe(baseline));
  });

  it('the error of a failed exchange carries the dashboard’s message, not the body', async () => {
    const { outcome, port } = await run(async (url, p) => {
      const callback = await authorize(url);
      await openCallback(`http://127.0.0.1:${p}/callback?code=not-a-code&state=${callback.searchParams.get('state')}`);
    });
    const err = await failureOf(outcome);
    expect(err.reason).toBe('exchange_failed');
    expect(err.message).toBe('The token exchange answered 400: This code was not made by this dashboard.');
    await expectClosed(port());
  });
});

describe('signIn error paths with a scripted token exchange', () => {
  async function withExchange(fetchFn: SignInOptions['fetch']): Promise<SignInError> {
    const { outcome, port } = await run(async (url) => void (await openCallback(await authorize(url))), { fetch: fetchFn });
    const err = await failureOf(outcome);
    await expectClosed(port());
    return err;
  }

  it('an exchange that fails before an answer: exchange_failed', async () => {
    const err = await withExchange(() => Promise.reject(new TypeError('fetch failed')));
    expect(err.reason).toBe('exchange_failed');
    expect(err.cause).toBeInstanceOf(TypeError);
  });

  it('an error answer that is not JSON: exchange_failed with the status text', async () => {
    const err = await withExchange(() => Promise.resolve(new Response('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' })));
    expect(err.reason).toBe('exchange_failed');
    expect(err.status).toBe(502);
    expect(err.message).toBe('The token exchange answered 502: Bad Gateway');
  });

  it("the dashboard's name, tier and expiry come back with their control characters escaped; the key as it came", async () => {
    const answer = { key: 'ozk_x\u001b', name: 'k\u001b]0;t\u0007', tier: 'pro\u009b2J', expires_at: '2027\u007f' };
    const { outcome } = await run(async (url) => void (await openCallback(await authorize(url))), { fetch: () => Promise.resolve(Response.json(answer)) });
    expect(await outcome).toEqual({ key: 'ozk_x\u001b', name: 'k\\u001b]0;t\\u0007', tier: 'pro\\u009b2J', expires_at: '2027\\u007f' });
  });

  it('a 200 that is not JSON, or lacks the key: invalid_answer', async () => {
    expect((await withExchange(() => Promise.resolve(new Response('not json')))).reason).toBe('invalid_answer');
    expect((await withExchange(() => Promise.resolve(Response.json({ name: 'x', tier: 'pro' })))).reason).toBe('invalid_answer');
  });

  it.each(['null', '[]', '"ozk_x"', '42', '{"key":"ozk_x","name":"n","tier":"pro","expires_at":{"at":1}}', '{"key":"","name":"n","tier":"pro"}'])(
    'a 200 of %s is invalid_answer (a SignInError), never a TypeError',
    async (body) => {
      const err = await withExchange(() => Promise.resolve(new Response(body, { headers: { 'content-type': 'application/json' } })));
      expect(err.reason).toBe('invalid_answer');
    },
  );

  it('an answer that never ends is read only to its bound (64 KiB): invalid_answer, the body cancelled', async () => {
    let pulled = 0;
    let cancelled: unknown;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const err = await withExchange(() => Promise.resolve(new Response(endless, { headers: { 'content-type': 'application/json' } })));
    expect(err.reason).toBe('invalid_answer');
    expect(err.message).toBe('The token exchange answered more than 64 KiB; nothing was stored.');
    expect(err.status).toBe(200);
    expect((err.cause as Error).name).toBe('OzResponseTooLargeError');
    expect(cancelled).toBe(err.cause);
    expect(pulled).toBeLessThanOrEqual(6);
  });

  it('an error answer larger than the bound is the same invalid_answer (its message is never read whole)', async () => {
    const err = await withExchange(() => Promise.resolve(new Response('x'.repeat(SIGN_IN_ANSWER_MAX_BYTES + 1), { status: 500 })));
    expect(err.reason).toBe('invalid_answer');
    expect(err.status).toBe(500);
  });

  it('an answer whose body breaks off: invalid_answer, with the cause', async () => {
    const broken = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"key":'));
        controller.error(new TypeError('terminated'));
      },
    });
    const err = await withExchange(() => Promise.resolve(new Response(broken)));
    expect(err.reason).toBe('invalid_answer');
    expect(err.message).toBe('The token exchange answered a body that broke off; nothing was stored.');
    expect(err.cause).toBeInstanceOf(TypeError);
  });

  it('an error answer of null or with a message that is not a string keeps the status text', async () => {
    for (const body of ['null', '{"error":{"message":{"x":1}}}']) {
      const err = await withExchange(() => Promise.resolve(new Response(body, { status: 400, statusText: 'Bad Request' })));
      expect(err.message).toBe('The token exchange answered 400: Bad Request');
    }
  });

  it('no dashboard URL: invalid_answer before listening', async () => {
    const saved = process.env.OZ_DASHBOARD_URL;
    delete process.env.OZ_DASHBOARD_URL;
    try {
      const err = await failureOf(signIn({ onAuthorizeURL: () => undefined }));
      expect(err.reason).toBe('invalid_answer');
      expect(err.message).toMatch(/OZ_DASHBOARD_URL/);
    } finally {
      if (saved !== undefined) process.env.OZ_DASHBOARD_URL = saved;
    }
    expect(tcpServers()).toBe(baseline);
  });

  it('OZ_DASHBOARD_URL is the default dashboard', async () => {
    vi.stubEnv('OZ_DASHBOARD_URL', `${listener.dashboardUrl}/`);
    try {
      let browsing: Promise<void> = Promise.resolve();
      const result = await signIn({
        onAuthorizeURL: (url) =>
          void (browsing = authorize(url)
            .then(openCallback)
            .then(() => undefined)),
      });
      await browsing;
      expect(result.key).toMatch(/^ozk_/);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
