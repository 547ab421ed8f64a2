/**
 * The server's chain (src/testing/serverChain.ts): composed of `(ctx, next)` steps, listed in one place that
 * src/testing/pipeline/README.md shows, and run without any step calling back into the mount.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_STEPS } from '../../src/testing/serverChain.js';
import { composeServerSteps, type ServerStep } from '../../src/testing/pipeline/serverStep.js';
import type { RequestOutcome } from '../../src/testing/wire/requestOutcome.js';
import { createTestServer } from '../support/ozServer.js';

const SRC = new URL('../../src/testing/', import.meta.url);
const answer = (status: number): RequestOutcome => ({ kind: 'written', parts: { status, headers: {}, body: null } });
const statusOf = (outcome: RequestOutcome) => (outcome.kind === 'written' ? outcome.parts.status : outcome.kind);

describe('composeServerSteps', () => {
  it('runs the steps in their order, each around the ones after it; the first that answers ends the way in', async () => {
    const seen: string[] = [];
    const step =
      (name: string): ServerStep<{ tag: string }> =>
      async (ctx, next) => {
        seen.push(`${name} in ${ctx.tag}`);
        const outcome = await next();
        seen.push(`${name} out`);
        return outcome;
      };
    const answers: ServerStep<{ tag: string }> = () => answer(204);
    const never: ServerStep<{ tag: string }> = () => {
      throw new Error('never reached');
    };
    const outcome = await composeServerSteps([step('a'), step('b'), answers, never])({ tag: 'r1' });
    expect(statusOf(outcome)).toBe(204);
    expect(seen).toEqual(['a in r1', 'b in r1', 'b out', 'a out']);
  });

  it('turns a step that throws, at once or later, into a rejection the steps before it can answer', async () => {
    const catches: ServerStep<object> = async (_ctx, next) => {
      try {
        return await next();
      } catch (err) {
        return answer((err as Error).message === 'sync' ? 400 : 500);
      }
    };
    const throwsAtOnce: ServerStep<object> = () => {
      throw new Error('sync');
    };
    const rejects: ServerStep<object> = () => Promise.reject(new Error('async'));
    expect(statusOf(await composeServerSteps([catches, throwsAtOnce])({}))).toBe(400);
    expect(statusOf(await composeServerSteps([catches, rejects])({}))).toBe(500);
    await expect(composeServerSteps([throwsAtOnce])({})).rejects.toThrow('sync');
  });

  it('rejects a request that runs past the last step without an answer', async () => {
    const passOn: ServerStep<object> = (_ctx, next) => next();
    await expect(composeServerSteps([passOn])({})).rejects.toThrow(/past the last step/);
  });
});

/** The TypeScript files under a folder of src/testing/, relative to it. */
function sourceFiles(dir = ''): string[] {
  return readdirSync(new URL(dir, SRC)).flatMap((name) => {
    const path = `${dir}${name}`;
    return statSync(new URL(path, SRC)).isDirectory() ? sourceFiles(`${path}/`) : name.endsWith('.ts') ? [path] : [];
  });
}

describe('the list of steps', () => {
  const readme = readFileSync(new URL('pipeline/README.md', SRC), 'utf8');
  const start = readme.indexOf('## A request, step by step');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  // Each numbered line starts with its step's file and name: **`pipeline/steps/requestId.ts` (`requestId`)**.
  const listed = [...section.matchAll(/^\d+\. \*\*`([\w/]+)\.ts` \(`(\w+)`\)\*\*/gm)].map(([, file, name]) => ({ file: file!, name: name! }));
  const names = SERVER_STEPS.map((step) => step.name);

  it('is the one src/testing/pipeline/README.md shows, in the same order', () => {
    expect(start).toBeGreaterThan(0);
    expect(listed.map((step) => step.name)).toEqual(names);
  });

  it('names for each step the file that exports it', () => {
    expect(listed).toHaveLength(SERVER_STEPS.length);
    for (const { file, name } of listed) {
      const source = readFileSync(new URL(`${file}.ts`, SRC), 'utf8');
      expect(source, `${file}.ts exports ${name}`).toMatch(new RegExp(`^export const ${name}: ServerStep<`, 'm'));
    }
  });

  it('holds every step of the server, and is the one list composed', () => {
    const steps: string[] = [];
    const composed: string[] = [];
    for (const file of sourceFiles()) {
      const source = readFileSync(new URL(file, SRC), 'utf8');
      for (const [, name] of source.matchAll(/^export const (\w+): ServerStep</gm)) steps.push(name!);
      if (/composeServerSteps\(SERVER_STEPS|composeServerSteps\(\[/.test(source) || (/composeServerSteps\(/.test(source) && file !== 'pipeline/serverStep.ts'))
        composed.push(file);
    }
    expect(steps.sort()).toEqual([...names].sort());
    expect(composed).toEqual(['serverChain.ts']);
  });

  it('starts with the request id and the Host check, and ends with the stubs and the handler', () => {
    expect(names.slice(0, 2)).toEqual(['requestId', 'hostCheck']);
    expect(names.slice(-2)).toEqual(['stub', 'handler']);
    // The key before any byte of the body, the bytes before the fault that may match them.
    expect(names.indexOf('authentication')).toBeLessThan(names.indexOf('bodyBytes'));
    expect(names.indexOf('bodyBytes')).toBeLessThan(names.indexOf('fault'));
  });
});

describe('the body the mount hands over', () => {
  /** A POST body that counts how often the server pulled a chunk of it. */
  function countedBody(text: string): { body: ReadableStream<Uint8Array>; pulls: () => number } {
    let pulls = 0;
    let sent = false;
    // No queue to fill: a chunk is pulled only when the server reads one.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls++;
          if (sent) return controller.close();
          sent = true;
          controller.enqueue(new TextEncoder().encode(text));
        },
      },
      { highWaterMark: 0 },
    );
    return { body, pulls: () => pulls };
  }

  it('is read by the bodyBytes step, once the key is good, and never for a request without one', async () => {
    const server = createTestServer();
    try {
      const post = (body: ReadableStream<Uint8Array>, headers: Record<string, string>) =>
        server.fetch(
          new Request(`${server.url}/v1/tools/echo/execute`, {
            method: 'POST',
            body,
            headers: { 'content-type': 'application/json', ...headers },
            duplex: 'half',
          } as RequestInit),
        );
      const refused = countedBody('{"text":"hi"}');
      expect((await post(refused.body, {})).status).toBe(401);
      expect(refused.pulls()).toBe(0);
      const served = countedBody('{"text":"hi"}');
      const res = await post(served.body, { authorization: `Bearer ${server.apiKey}` });
      expect(res.status).toBe(200);
      expect(served.pulls()).toBeGreaterThan(0);
      expect(server.journal.last('executeTool')).toMatchObject({ body: '{"text":"hi"}', status: 200 });
    } finally {
      await server.close();
    }
  });
});
