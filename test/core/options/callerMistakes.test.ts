// Caller mistakes are OzUsageErrors raised before anything is sent (contract, "Trust at the edges, round 3"):
// query values, bodies JSON or YAML cannot write, a base URL with credentials. Real HTTP against the scripted
// server, which records every request it receives: none must reach it.
import { describe, expect, it } from 'vitest';
import { Oz, OzUsageError } from '../../../src/index.js';
import { envelope, KEY, rejectionOf } from '../support/clients.js';
import { ScriptedServer } from '../support/scriptedServer.js';

const server = ScriptedServer.forSuite(() => ({ body: { data: [], next_cursor: null } }));
const client = () => new Oz({ baseURL: server.url, apiKey: KEY, logLevel: 'off', maxRetries: 2 });

/** The usage error of a call, after checking nothing reached the server. */
async function usageErrorOf(call: PromiseLike<unknown>): Promise<OzUsageError> {
  const error = await rejectionOf(call);
  expect(error).toBeInstanceOf(OzUsageError);
  expect(server.requests).toEqual([]);
  return error as OzUsageError;
}

describe('query values', () => {
  const refused: [string, unknown, string][] = [
    ['an object', { a: 1 }, 'an object ([object Object])'],
    ['a Symbol', Symbol('s'), 'a Symbol'],
    ['a function', () => 'source', 'a function'],
    ['a BigInt', 10n, 'a BigInt'],
    ['NaN', Number.NaN, 'NaN'],
    ['an infinity', Number.POSITIVE_INFINITY, 'Infinity'],
    ['a nested array', ['a', ['b']], 'an array inside an array'],
    ['an array holding an object', ['a', { b: 1 }], 'an object ([object Object])'],
    ['an array holding null', ['a', null], 'null inside an array'],
    ['a Date', new Date(0), 'an object ([object Date])'],
  ];

  it.each(refused)('%s in options.query: OzUsageError naming the parameter, nothing sent', async (_, value, what) => {
    const error = await usageErrorOf(client().tools.list({}, { query: { tag: value as never } }));
    expect(error.message).toBe(
      `The query parameter "tag" (from options.query) is ${what}; a query value is a string, a finite number, a boolean or an array of those. Nothing was sent.`,
    );
    expect(error.message).not.toContain('source');
  });

  it("the same through generated parameters and the client's defaultQuery", async () => {
    const fromParams = await usageErrorOf(client().tools.list({ limit: { a: 1 } as never }));
    expect(fromParams.message).toMatch(/^The query parameter "limit" \(from the operation's parameters\) is an object/);
    const withDefaults = new Oz({ baseURL: server.url, apiKey: KEY, defaultQuery: { region: Symbol('eu') as never } });
    const fromDefaults = await usageErrorOf(withDefaults.tools.get('echo'));
    expect(fromDefaults.message).toMatch(/^The query parameter "region" \(from defaultQuery\) is a Symbol/);
  });

  it('sends strings, finite numbers, booleans and arrays of them (repeated); undefined and null stay out', async () => {
    await client().tools.list({}, { query: { tag: ['a', 2, true], n: -1.5, yes: false, gone: undefined, none: null, empty: [] } });
    await new Oz({ baseURL: server.url, apiKey: KEY, defaultQuery: { tag: ['x', 'y'] } }).tools.list({}, { query: { tag: 'z' } });
    expect(server.requests.map((r) => r.url)).toEqual(['/v1/tools?tag=a&tag=2&tag=true&n=-1.5&yes=false', '/v1/tools?tag=z']);
  });
});

describe('a body JSON cannot write', () => {
  const cyclic: Record<string, unknown> = { text: 'x' };
  cyclic.params = { again: cyclic };
  const cases: [string, unknown, string][] = [
    ['a cycle', cyclic, 'body.params.again refers back to an object that holds it (a cycle)'],
    ['a BigInt', { text: 'x', params: { n: [1, 2n] } }, 'body.params.n[1] is a BigInt (send it as a string or a number)'],
    [
      'a getter that throws',
      {
        text: 'x',
        params: Object.defineProperty({}, 'secret', {
          enumerable: true,
          get: () => {
            throw new Error('vault locked');
          },
        }),
      },
      'the getter of body.params.secret threw: vault locked',
    ],
    [
      'a toJSON() that throws',
      {
        text: 'x',
        when: {
          toJSON: () => {
            throw new Error('no time');
          },
        },
      },
      'body.when.toJSON() threw: no time',
    ],
  ];

  it.each(cases)("%s: OzUsageError saying what and where, JSON's own error as its cause, nothing sent", async (_, body, problem) => {
    const error = await usageErrorOf(client().tools.execute('echo', body as never));
    expect(error.message).toBe(`The body of executeTool cannot be written as JSON: ${problem}. Nothing was sent.`);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it.each(cases)('%s on the YAML wire (bodyFormat: yaml): the same, nothing sent', async (_, body, problem) => {
    const error = await usageErrorOf(client().workflows.create(body as never, { bodyFormat: 'yaml' }));
    expect(error.message).toBe(`The body of createWorkflow cannot be written as YAML: ${problem}. Nothing was sent.`);
    expect(error.cause).toBeDefined();
  });

  it('a body JSON can write is sent as before', async () => {
    server.answer({ body: envelope('ok') });
    const shared = { n: 1 };
    await client().tools.execute('echo', { text: 'x', params: { a: shared, b: shared } } as never);
    expect(server.requests.map((r) => r.body)).toEqual(['{"text":"x","params":{"a":{"n":1},"b":{"n":1}}}']);
  });
});

describe('a base URL with a user name or password', () => {
  it.each(['http://alice:secret@127.0.0.1:1', 'http://alice@127.0.0.1:1', 'https://:secret@oz.example.com'])(
    '%s: OzUsageError at construction and per call, never quoting the user name or password',
    async (given) => {
      const expected = /carries a user name or password, which no request may; pass the address without them and the key as apiKey\.$/;
      expect(() => new Oz({ baseURL: given, apiKey: KEY })).toThrow(expected);
      try {
        new Oz({ baseURL: given, apiKey: KEY });
      } catch (error) {
        expect((error as Error).message).not.toContain('secret');
        expect((error as Error).message).not.toContain('alice');
      }
      const perCall = await usageErrorOf(client().tools.get('echo', { baseURL: given.replace('127.0.0.1:1', server.url.slice(7)) }));
      expect(perCall.message).toMatch(expected);
      expect(perCall.message).not.toContain('secret');
    },
  );

  it('a value whose "user:secret@" reads as a scheme is refused without being quoted', () => {
    expect(() => new Oz({ baseURL: 'user:secret@127.0.0.1', apiKey: KEY })).toThrow(/^baseURL must be an http:\/\/ or https:\/\/ address\.$/);
  });
});
