// The option table (src/core/options/optionTable.ts) and its checker: every option of a client and of a call is
// checked where it is given. The cases are generated from the table: for each option, each kind of wrong value (a
// number where a string is due, a string where a number, a function where none, an object, null, a value outside
// the allowed set), at `new Oz()`, `withOptions()`, `OzCore` and per call where the option may be given there,
// each an `OzUsageError` naming the option, with nothing sent; and the values each option takes, accepted.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { OzCore, toolsGet, type OzCoreOptions } from '../../../src/funcs/index.js';
import { Oz, OzUsageError, type ClientOptions, type RequestOptions } from '../../../src/index.js';
import { checkOption } from '../../../src/core/options/checkOptions.js';
import { OPTION_TABLE, type CallOptionName, type ClientOptionName, type OptionName, type OptionRow } from '../../../src/core/options/optionTable.js';
import { KEY, recordingLogger, rejectionOf } from '../support/clients.js';

const BASE = 'http://127.0.0.1:9';
const tool = { name: 'echo', description: 'Echoes.', input_schema: { type: 'object' }, required: [], connection: null };

// Every fetch of these tests: none may happen where an option is refused.
const sent: string[] = [];
const spy = async (input: string | URL | Request) => {
  sent.push(input instanceof Request ? input.url : String(input));
  return Response.json(tool);
};
const quiet = recordingLogger();
const base = { baseURL: BASE, apiKey: KEY, fetch: spy, logger: quiet, maxRetries: 0 } satisfies ClientOptions;

const ROWS = Object.entries(OPTION_TABLE) as [OptionName, OptionRow][];
const atClient = ROWS.filter(([, row]) => row.where !== 'call');
const perCall = ROWS.filter(([, row]) => row.where !== 'client');

// Strings a row's own check (`refine`) refuses though they are strings.
const REFUSED_STRINGS: Partial<Record<OptionName, string[]>> = {
  baseURL: ['localhost:4010', 'http://127.0.0.1:9/v1', 'http://user:pw@127.0.0.1:9', 'ftp://127.0.0.1'],
  mcpURL: ['not an address', 'ftp://127.0.0.1/v1'],
};

/** The wrong values of a row, each with what it is: made from its kind (and its range, its set). */
function wrongValues(row: OptionRow): [string, unknown][] {
  const number: [string, unknown] = ['a number', 42];
  const string: [string, unknown] = ['a string', 'nope'];
  const fn: [string, unknown] = ['a function', () => 'x'];
  const object: [string, unknown] = ['an object', { a: 1 }];
  const none: [string, unknown] = ['null', null];
  const bool: [string, unknown] = ['a boolean', true];
  switch (row.kind) {
    case 'string':
      return [number, fn, object, none, bool];
    case 'key':
      return [number, object, none, bool, ['an empty string', ''], ['an array', ['ozk_a']]];
    case 'enum':
      return [number, fn, object, none, ['a value outside the set', 'loud'], ['a value in another case', row.values![0]!.toUpperCase()]];
    case 'number':
      return [['a numeric string', '3'], fn, object, none, bool, ...outOfRange(row.range!)];
    case 'boolean':
      return [['the string "true"', 'true'], ['the number 1', 1], fn, object, none];
    case 'function':
      return [number, string, object, none];
    case 'functions':
      return [string, fn, ['an array holding null', [null]], ['an array holding an object', [{ onRequest() {} }]], object, none];
    case 'record':
    case 'fields':
      return [number, string, fn, none, ['an array', []]];
    case 'signal':
      return [number, string, fn, object, none];
    case 'logger':
      return [
        number,
        string,
        none,
        ['an object without debug', { error() {}, warn() {}, info() {} }],
        ['an object of strings', { error: 'x', warn: 'x', info: 'x', debug: 'x' }],
      ];
  }
}

/** Numbers outside a range: below it, at an excluded bound, a fraction where whole ones are due, past its top, Infinity, NaN. */
function outOfRange(range: NonNullable<OptionRow['range']>): [string, unknown][] {
  const out: [string, unknown][] = [
    ['below the least', range.min - 1],
    ['NaN', Number.NaN],
    ['-Infinity', -Infinity],
  ];
  if (range.above) out.push(['the excluded bound', range.min]);
  if (range.whole) out.push(['a fraction', range.min + 0.5]);
  if (range.max !== undefined) out.push(['past the greatest', range.max + 1]);
  if (!range.infinite) out.push(['Infinity', Infinity]);
  return out;
}

/** A value of each kind the row takes (every value of a set). */
function validValues(name: string, row: OptionRow): unknown[] {
  switch (row.kind) {
    case 'string':
      return [name === 'baseURL' ? 'http://127.0.0.1:8' : name === 'mcpURL' ? 'http://127.0.0.1:8/v1' : 'a-key-1'];
    case 'key':
      return ['ozk_other', () => 'ozk_provided'];
    case 'enum':
      return [...row.values!];
    case 'number': {
      const { min, above, max, infinite } = row.range!;
      return [above ? min + 1 : min, ...(max !== undefined ? [max] : []), ...(infinite ? [Infinity] : [])];
    }
    case 'boolean':
      return [true, false];
    case 'function':
      return [name === 'fetch' ? spy : () => undefined];
    case 'functions':
      return [[], [(request: Request, next: (request: Request) => Promise<Response>) => next(request)]];
    case 'record':
      return [{}];
    case 'fields':
      return [{}, Object.fromEntries(Object.entries(row.fields!).map(([field, inner]) => [field, validValues(field, inner)[0]]))];
    case 'signal':
      return [new AbortController().signal];
    case 'logger':
      return [recordingLogger(), console];
  }
}

/** Each wrong value of an option, with the name the message must start with (`retry.jitter` for a field). */
function cases(rows: [OptionName, OptionRow][]): [string, string, OptionName, unknown, string][] {
  return rows.flatMap(([name, row]) => {
    const own = [...wrongValues(row), ...(REFUSED_STRINGS[name] ?? []).map((value): [string, unknown] => [`the string ${JSON.stringify(value)}`, value])];
    const whole = own.map(([what, value]): [string, string, OptionName, unknown, string] => [name, what, name, value, name]);
    const fields = Object.entries(row.fields ?? {}).flatMap(([field, inner]) =>
      wrongValues(inner).map(([what, value]): [string, string, OptionName, unknown, string] => [
        `${name}.${field}`,
        what,
        name,
        { [field]: value },
        `${name}.${field}`,
      ]),
    );
    return [...whole, ...fields];
  });
}

/** The error `make` throws (fails the test when it throws none). */
function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error('expected a usage error, but nothing was thrown');
}

function expectRefused(error: unknown, label: string): void {
  expect(error).toBeInstanceOf(OzUsageError);
  expect((error as OzUsageError).code).toBe('usage_error');
  expect((error as Error).message.startsWith(`${label} `)).toBe(true);
  expect(sent).toEqual([]);
}

describe('the option table', () => {
  it('has a row for every option of a client and of a call, each where the types say it may be given', () => {
    expectTypeOf<ClientOptionName>().toEqualTypeOf<keyof ClientOptions>();
    expectTypeOf<CallOptionName>().toEqualTypeOf<keyof RequestOptions>();
    expectTypeOf<Exclude<ClientOptionName, 'mcpURL'>>().toEqualTypeOf<keyof OzCoreOptions>();
    // Every string a row refines has refused examples here.
    expect(
      ROWS.filter(([, row]) => row.refine !== undefined)
        .map(([name]) => name)
        .sort(),
    ).toEqual(Object.keys(REFUSED_STRINGS).sort());
  });

  it('says what the option takes and what came', () => {
    const message = (options: ClientOptions) => (thrownBy(() => new Oz({ ...base, ...options })) as Error).message;
    expect(message({ apiKey: 42 as never })).toBe('apiKey must be a non-empty string or a function returning one, not number (42).');
    expect(message({ authHeader: 'basic' as never })).toBe("authHeader must be one of 'bearer' or 'x-api-key', not \"basic\".");
    expect(message({ logLevel: 'loud' as never })).toBe("logLevel must be one of 'off', 'error', 'warn', 'info' or 'debug', not \"loud\".");
    expect(message({ fetch: 'nope' as never })).toBe('fetch must be a Fetch-API function (input, init) => Promise<Response>, not string ("nope").');
    expect(message({ logger: 5 as never })).toBe(
      'logger must be a logger: an object with the functions error, warn, info and debug (console is one), not number (5).',
    );
    expect(message({ maxRetries: '3' as never })).toBe('maxRetries must be a whole number >= 0, not string ("3").');
    expect(message({ timeout: -1 })).toBe('timeout must be a number of milliseconds > 0, not -1.');
    expect(message({ defaultHeaders: [] as never })).toBe('defaultHeaders must be an object of header names to values, not an array.');
    // A long string may be a key given to the wrong option: it is not quoted.
    expect(message({ maxRetries: KEY as never })).toBe(`maxRetries must be a whole number >= 0, not a string of ${KEY.length} characters.`);
  });

  it('refuses options that are not an object, at a client and per call', async () => {
    expect((thrownBy(() => new Oz(null as never)) as Error).message).toBe('The options of a client must be an object, not null.');
    expect((thrownBy(() => new OzCore('x' as never)) as Error).message).toBe('The options of a client must be an object, not string ("x").');
    expect((thrownBy(() => new Oz(base).withOptions(5 as never)) as Error).message).toBe('The options of a client must be an object, not number (5).');
    const perCallError = await rejectionOf(new Oz(base).tools.get('echo', [] as never));
    expect((perCallError as Error).message).toBe('The options of a call must be an object, not an array.');
    expect(sent).toEqual([]);
  });

  it('leaves names it does not know, or knows only for the other place, unread (as before the table)', async () => {
    const client = new Oz({ ...base, ...({ colour: 5, signal: 'not a signal', format: 'xml' } as object) });
    await client.tools.get('echo', { ...({ defaultHeaders: 5, mcpURL: 5, colour: null } as object) });
    // OzCore takes no mcpURL: it stays unread there.
    await toolsGet(new OzCore({ ...base, ...({ mcpURL: 5 } as object) }), 'echo');
    expect(sent).toHaveLength(2);
    sent.length = 0;
  });
});

describe.each(cases(atClient))('%s given %s, at a client', (_, __, name, value, label) => {
  it('new Oz(): OzUsageError naming it', () =>
    expectRefused(
      thrownBy(() => new Oz({ ...base, [name]: value })),
      label,
    ));
  it('withOptions(): OzUsageError naming it', () =>
    expectRefused(
      thrownBy(() => new Oz(base).withOptions({ [name]: value })),
      label,
    ));
  if (name !== 'mcpURL')
    it('OzCore: OzUsageError naming it', () =>
      expectRefused(
        thrownBy(() => new OzCore({ ...base, [name]: value })),
        label,
      ));
});

describe.each(cases(perCall))('%s given %s, per call', (_, __, name, value, label) => {
  it('a resource method: OzUsageError naming it, nothing sent', async () =>
    expectRefused(await rejectionOf(new Oz(base).tools.get('echo', { [name]: value })), label));
  it('a standalone function: OzUsageError naming it, nothing sent', async () =>
    expectRefused(await rejectionOf(toolsGet(new OzCore(base), 'echo', { [name]: value })), label));
});

describe.each(atClient.flatMap(([name, row]) => validValues(name, row).map((value) => [name, value] as const)))('%s given %o, at a client', (name, value) => {
  it('is taken by new Oz(), withOptions() and OzCore', () => {
    expect(new Oz({ ...base, [name]: value })).toBeInstanceOf(Oz);
    expect(new Oz(base).withOptions({ [name]: value })).toBeInstanceOf(Oz);
    expect(new OzCore({ ...base, [name]: value })).toBeInstanceOf(OzCore);
  });
});

describe.each(perCall.flatMap(([name, row]) => validValues(name, row).map((value) => [name, value] as const)))('%s given %o, per call', (name, value) => {
  it('is taken: the call is sent', async () => {
    const outcome = await new Oz(base).tools.get('echo', { [name]: value }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(outcome).not.toBeInstanceOf(OzUsageError);
    expect(sent).toHaveLength(1);
    sent.length = 0;
  });
});

describe('checkOption, for a flag of oz', () => {
  it('names the label it is given', () => {
    expect(() => checkOption('timeout', 0, '--timeout')).toThrow(new OzUsageError('--timeout must be a number of milliseconds > 0, not 0.'));
    expect(() => checkOption('baseURL', 'nope', '--base-url')).toThrow(/^--base-url "nope" is not an absolute URL/);
    expect(checkOption('maxRetries', 3)).toBe(3);
  });
});
