// Type tests of the core's public types: `tsc --noEmit -p .` fails when an expectTypeOf assertion does not hold
// or a line marked @ts-expect-error compiles. The calls sit in a function that never runs.
import { describe, expectTypeOf, it } from 'vitest';
import {
  Oz,
  OzAPIError,
  DuplicateExecutionIdError,
  InvalidParamsError,
  LegacyKeyError,
  type AsyncPointer,
  type ConnectInfo,
  type ExecutionResult,
  type Format,
  type Item,
  type RateLimitInfo,
  type Waitable,
  type WithResponse,
} from '../../src/index.js';

function calls(client: Oz, anyFormat: Format) {
  // @ts-expect-error: an unknown body format
  void client.tools.execute('echo', {}, { bodyFormat: 'xml' });
  // @ts-expect-error: only bearer and x-api-key
  void client.tools.execute('echo', {}, { authHeader: 'basic' });
  // @ts-expect-error: list routes walk pages on json and yaml only
  void client.tools.list({}, { format: 'markdown' });
  // @ts-expect-error: JSON-only routes take no format
  void client.models.list({ format: 'yaml' });
  // @ts-expect-error: a misspelt client option
  void new Oz({ apikey: 'ozk_x' });
  // @ts-expect-error: the key is never readable from the client
  void client.apiKey;

  return {
    json: client.tools.execute('echo', { text: 'x' }, { format: 'json' }),
    yaml: client.tools.execute('echo', { text: 'x' }, { format: 'yaml' }),
    markdown: client.tools.execute('echo', { text: 'x' }, { format: 'markdown', idempotencyKey: 'k' }),
    text: client.tools.execute('echo', { text: 'x' }, { format: 'text', signal: AbortSignal.timeout(1) }),
    none: client.tools.execute('echo', { text: 'x' }, { timeout: 5, maxRetries: 0, apiKey: 'ozk_y', authHeader: 'x-api-key' }),
    union: client.tools.execute('echo', { text: 'x' }, { format: anyFormat }),
    pointerMarkdown: client.workflows.execute({ workflow: { name: 'w', tasks: [] }, async: true }, { format: 'markdown' }),
    pointerYaml: client.agents.execute({ agent: 'writer', async: true }, { format: 'yaml' }),
    maybePointer: client.tools.execute('echo', { text: 'x', async: Math.random() > 0.5 }, { format: 'text' }),
    itemText: client.companies.items.get('acme', 'itm_1', { format: 'text' }),
    itemYamlBody: client.companies.items.create('acme', { building: 'hq', title: 't' }, { bodyFormat: 'yaml' }),
    withResponse: client.tools.execute('echo', { text: 'x' }, { format: 'markdown' }).withResponse(),
    copy: client.withOptions({ maxRetries: 0, logLevel: 'debug' }),
  };
}

describe('core types', () => {
  it('types results per wire', () => {
    type R = ReturnType<typeof calls>;
    expectTypeOf<Awaited<R['json']>>().toEqualTypeOf<ExecutionResult>();
    expectTypeOf<Awaited<R['yaml']>>().toEqualTypeOf<ExecutionResult>();
    expectTypeOf<Awaited<R['markdown']>>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<R['text']>>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<R['none']>>().toEqualTypeOf<ExecutionResult>();
    expectTypeOf<Awaited<R['union']>>().toEqualTypeOf<ExecutionResult | string>();
    expectTypeOf<Awaited<R['pointerMarkdown']>>().toEqualTypeOf<Waitable<AsyncPointer>>();
    expectTypeOf<Awaited<R['pointerYaml']>>().toEqualTypeOf<Waitable<AsyncPointer>>();
    expectTypeOf<Awaited<R['maybePointer']>>().toEqualTypeOf<string | Waitable<AsyncPointer>>();
    expectTypeOf<Awaited<R['itemText']>>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<R['itemYamlBody']>>().toEqualTypeOf<Item>();
    expectTypeOf<Awaited<R['withResponse']>>().toEqualTypeOf<WithResponse<string>>();
    expectTypeOf<Awaited<R['withResponse']>['rateLimit']>().toEqualTypeOf<RateLimitInfo>();
    expectTypeOf<RateLimitInfo['remaining']>().toEqualTypeOf<number | null>();
    expectTypeOf<R['copy']>().toEqualTypeOf<Oz>();
  });

  it('types errors for branching by class and by code', () => {
    expectTypeOf<DuplicateExecutionIdError['code']>().toEqualTypeOf<'duplicate_execution_id'>();
    expectTypeOf<InvalidParamsError['missing']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<OzAPIError['connect']>().toEqualTypeOf<ConnectInfo | undefined>();
    expectTypeOf<ConnectInfo['method']>().toEqualTypeOf<'oauth' | 'api_key' | 'wallet'>();
    expectTypeOf<LegacyKeyError['keyPlane']>().toEqualTypeOf<'models' | 'proxy' | 'unknown'>();
    expectTypeOf<LegacyKeyError>().toMatchTypeOf<OzAPIError>();
  });
});
