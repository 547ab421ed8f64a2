/**
 * The chain of a call (src/core/callChain.ts): composed as `(call, next)` steps, listed in one place that
 * src/core/README.md shows, and run without any step calling back into the transport.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { CALL_STEPS, composeSteps, RAW_STEPS } from '../../src/core/callChain.js';
import { OzError } from '../../src/core/errors/errors.js';
import type { Answer, Call, Step } from '../../src/core/shared/call.js';
import { Transport } from '../../src/core/transport.js';
import { envelope, fastClient, rejectionOf } from './support/clients.js';
import { executionRecord } from './support/executionRecord.js';
import { ScriptedServer, type ScriptedAnswer } from './support/scriptedServer.js';

const server = ScriptedServer.forSuite();

const answerOf = (text: string): Answer => ({ response: new Response(text), text });
const callOf = (tag: string): Call => ({ tag }) as Call;

describe('composeSteps', () => {
  it('runs the steps in their order, each around the ones after it', async () => {
    const seen: string[] = [];
    const step =
      (name: string): Step =>
      async (call, next) => {
        seen.push(`${name} in`);
        const answer = await next(call);
        seen.push(`${name} out`);
        return answer;
      };
    const last: Step = async (call) => {
      seen.push(`last ${call.tag}`);
      return answerOf('done');
    };
    const answer = await composeSteps([step('a'), step('b'), last])(callOf('c1'));
    expect(answer.text).toBe('done');
    expect(seen).toEqual(['a in', 'b in', 'last c1', 'b out', 'a out']);
  });

  it("lets a step run the rest again (a retry) and with a call of its own (a lost answer's read)", async () => {
    const calls: string[] = [];
    const twice: Step = async (call, next) => {
      await next(call);
      return await next({ ...call, tag: `${call.tag}+read` });
    };
    const last: Step = async (call) => {
      calls.push(call.tag);
      return answerOf(call.tag);
    };
    const answer = await composeSteps([twice, last])(callOf('c2'));
    expect(calls).toEqual(['c2', 'c2+read']);
    expect(answer.text).toBe('c2+read');
  });

  it('answers an OzError when the last step hands the call on', async () => {
    const passOn: Step = (call, next) => next(call);
    const error = await rejectionOf(composeSteps([passOn])(callOf('c3')));
    expect(error).toBeInstanceOf(OzError);
    expect((error as Error).message).toMatch(/past the last step/);
  });
});

describe('the list of steps', () => {
  const readme = readFileSync(new URL('../../src/core/README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## A call, step by step'), readme.indexOf('\n## ', readme.indexOf('## A call, step by step') + 1));
  // Each numbered line of the section starts with its step: its file and its name: **`span/traceSpan.ts` (`traceSpan`)**.
  const listed = [...section.matchAll(/^\d+\. \*\*`([\w/]+)\.ts` \(`(\w+)`\)\*\*/gm)].map(([, file, name]) => ({ file: file!, name: name! }));

  it('is the one src/core/README.md shows, in the same order', () => {
    expect(listed.map((step) => step.name)).toEqual(CALL_STEPS.map((step) => step.name));
  });

  it('names for each step the file that exports it', () => {
    expect(listed).toHaveLength(CALL_STEPS.length);
    for (const { file, name } of listed) {
      const source = readFileSync(new URL(`../../src/core/${file}.ts`, import.meta.url), 'utf8');
      expect(source, `${file}.ts exports ${name}`).toMatch(new RegExp(`^export const ${name}: Step = `, 'm'));
    }
  });

  it("of a raw request is the call's, without the decoding step and with the lost answer refused", () => {
    const names = (steps: readonly Step[]) => steps.map((step) => step.name);
    expect(names(RAW_STEPS)).toEqual(
      names(CALL_STEPS)
        .filter((name) => name !== 'decodeAnswer')
        .map((name) => (name === 'recoverLostAnswer' ? 'refuseLostAnswer' : name)),
    );
  });
});

describe('no step calls back into the transport', () => {
  /** Counts every call of the transport's methods while `run` runs. */
  async function transportCalls(run: () => Promise<unknown>): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    const spies = (['request', 'stream', 'call', 'prepare', 'exchange'] as const).map((method) => {
      const prototype = Transport.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
      const original = prototype[method]!;
      return vi.spyOn(prototype, method).mockImplementation(function (this: unknown, ...args: unknown[]) {
        counts[method] = (counts[method] ?? 0) + 1;
        return original.apply(this, args);
      });
    });
    try {
      await run();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    return counts;
  }

  it('on a retry after a 503, a redirect, middleware and a lost answer read from its run', async () => {
    const runs = new Set<string>();
    server.fallback = (request): ScriptedAnswer => {
      const key = String(request.headers['x-trace-id']);
      if (request.method === 'GET')
        return { headers: { 'x-request-id': 'req_record' }, body: executionRecord(decodeURIComponent(request.path.split('/').pop()!), 'succeeded') };
      if (request.path === '/v1/tools/old/execute') return { status: 307, headers: { location: '/v1/tools/echo/execute' } };
      if (request.headers['x-oz-retry-count'] === '0') return { status: 503, body: { error: { code: 'service_unavailable', message: 'busy' } } };
      if (runs.has(key))
        return { status: 409, headers: { 'x-error-code': 'duplicate_execution_id' }, body: { error: { code: 'duplicate_execution_id', message: 'known' } } };
      runs.add(key);
      return { destroy: true };
    };
    const middleware = vi.fn((request: Request, next: (request: Request) => Promise<Response>) => next(request));
    const client = fastClient(server, { middleware: [middleware] });
    const counts = await transportCalls(async () => {
      const data = await client.tools.execute('old', { text: 'hi' }, { idempotencyKey: 'exe_chain', maxRetries: 3 });
      expect(data).toEqual(envelope('first run result', 'exe_chain', 'req_record'));
    });
    // One call: resolved once, sent once; its attempts, hops and the run's reads all went down the chain.
    expect(counts).toEqual({ request: 1, call: 1, prepare: 1 });
    expect(server.requests.map((r) => `${r.method} ${r.path} ${String(r.headers['x-oz-retry-count'])}`)).toEqual([
      'POST /v1/tools/old/execute 0',
      'POST /v1/tools/echo/execute 0',
      'POST /v1/tools/old/execute 1',
      'POST /v1/tools/echo/execute 1',
      'POST /v1/tools/old/execute 2',
      'POST /v1/tools/echo/execute 2',
      'GET /v1/executions/exe_chain 0',
    ]);
    expect(middleware).toHaveBeenCalledTimes(4);
  });
});
