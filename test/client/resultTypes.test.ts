/**
 * The error of a call's `result()` is typed as exactly what its operation can fail with (openapi.json's
 * `x-oz-error-codes` and the rules, plus the SDK's own errors): a `switch (error.code)` over it is checked
 * exhaustively by the compiler, and a case the operation cannot answer does not compile. Type-checked by
 * `npm run typecheck` (tsc over test/), and by vitest's expectTypeOf.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { ExecutionResult, Oz, OperationError, Tool, ToolNotFoundError, WaitError } from '../../src/index.js';

const unreachable = (value: never): never => {
  throw new Error(`not handled: ${String(value)}`);
};

// Each function compiles only if its switch names every code the operation can answer (the `never` in default).
async function getTool(oz: Oz): Promise<string> {
  const { data, error } = await oz.tools.get('echo').result();
  if (!error) return data.name;
  switch (error.code) {
    case 'tool_not_found':
    case 'invalid_format':
    case 'unauthorized':
    case 'rate_limited':
    case 'request_timeout':
    case 'timeout':
    case 'internal_error':
    case 'connection_error':
    case 'timeout_error':
    case 'abort_error':
    case 'usage_error':
    case 'redirect_error':
    case 'response_too_large':
    case 'response_validation_error':
      return error.code;
    // @ts-expect-error getTool never answers execution_not_found
    case 'execution_not_found':
      return 'impossible';
    default:
      return unreachable(error);
  }
}

async function createItem(oz: Oz): Promise<string> {
  const { error } = await oz.companies.items.create('acme', { building: 'hq', title: 't', body: 'b' }).result();
  if (error === undefined) return 'created';
  switch (error.code) {
    case 'company_not_found':
    case 'not_enabled':
    case 'upstream_error':
    case 'idempotency_conflict':
    case 'invalid_json':
    case 'invalid_params':
    case 'payload_too_large':
    case 'invalid_format':
    case 'unauthorized':
    case 'rate_limited':
    case 'request_timeout':
    case 'timeout':
    case 'internal_error':
    case 'connection_error':
    case 'timeout_error':
    case 'abort_error':
    case 'usage_error':
    case 'redirect_error':
    case 'response_too_large':
    case 'response_validation_error':
      return error.code;
    // @ts-expect-error creating an item never answers tool_not_found
    case 'tool_not_found':
      return 'impossible';
    default:
      return unreachable(error);
  }
}

async function listExecutions(oz: Oz): Promise<string> {
  const { error } = await oz.executions.list().result();
  if (error === undefined) return 'listed';
  switch (error.code) {
    case 'invalid_params':
    case 'invalid_format':
    case 'unauthorized':
    case 'rate_limited':
    case 'request_timeout':
    case 'timeout':
    case 'internal_error':
    case 'connection_error':
    case 'timeout_error':
    case 'abort_error':
    case 'usage_error':
    case 'redirect_error':
    case 'response_too_large':
    case 'response_validation_error':
      return error.code;
    // @ts-expect-error a list never answers duplicate_execution_id
    case 'duplicate_execution_id':
      return 'impossible';
    default:
      return unreachable(error);
  }
}

// A switch that forgets a code does not compile: `error` is not `never` in its default.
async function forgetful(oz: Oz): Promise<string> {
  const { error } = await oz.tools.get('echo').result();
  if (error === undefined) return 'ok';
  switch (error.code) {
    case 'tool_not_found':
      return error.code;
    default:
      // @ts-expect-error tool_not_found is handled, the other codes are not
      return unreachable(error);
  }
}

describe('result() types (checked by tsc)', () => {
  it("types the error of a call as its operation's own codes plus the SDK's errors", () => {
    expectTypeOf(getTool).returns.resolves.toBeString();
    expectTypeOf(createItem).returns.resolves.toBeString();
    expectTypeOf(listExecutions).returns.resolves.toBeString();
    expectTypeOf(forgetful).returns.resolves.toBeString();
    type GetToolResult = Awaited<ReturnType<ReturnType<Oz['tools']['get']>['result']>>;
    expectTypeOf<Extract<GetToolResult, { error: undefined }>['data']>().toEqualTypeOf<Tool | string>();
    expectTypeOf<Extract<GetToolResult, { data: undefined }>['error']>().toEqualTypeOf<OperationError<'getTool'>>();
    expectTypeOf<ToolNotFoundError>().toMatchTypeOf<OperationError<'getTool'>>();
    expectTypeOf<Awaited<ReturnType<ReturnType<Oz['executions']['wait']>['result']>>['error']>().toEqualTypeOf<WaitError | undefined>();
    expectTypeOf<Awaited<ReturnType<Oz['executions']['wait']>>>().toEqualTypeOf<ExecutionResult>();
  });
});
