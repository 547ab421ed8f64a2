import { waitForExecution, type ExecutionRef, type PollRequestOptions, type WaitOptions } from '../core/executions/executionPoller.js';
import type { Transport } from '../core/transport.js';
import type { APIPromise } from '../core/result/apiPromise.js';
import type { WaitError } from '../generated/operationErrors.js';
import { ExecutionsBase } from '../generated/resources/executions.js';
import type { Execution, ExecutionResult } from '../generated/types.js';

/**
 * The `executions` resource: the generated `cancel`, `followup`, `get` and `list`, and `wait`, which polls an
 * execution to its end.
 */
export class Executions extends ExecutionsBase {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    super(transport);
    this.#transport = transport;
  }

  /**
   * Polls an execution (`GET /v1/executions/{id}`) until it finishes, with backoff (`interval`, growing 1.5
   * times per poll up to `maxInterval`) and honouring the record's `Retry-After`.
   *
   * Takes an execution id or any object with an `execution_id`: the async pointer of an `async: true` call, also
   * one stored and read back from JSON or YAML. (Pointers returned by execute calls also carry a non-enumerable
   * `wait(options)` doing the same.)
   *
   * @param execution - The execution id, or an object with `execution_id`.
   * @param options - `interval`, `maxInterval`, `timeout` (default 10 minutes), `signal`, `onProgress`.
   * @param requestOptions - Options of each poll's request (key, base address, `fetch`, headers, retries).
   * @returns The execution result envelope (`{ok, content, execution_id, request_id}`) on `succeeded`.
   * @throws The typed error of the run's `error` on `failed` (the class of its code, for example
   * `InvalidParamsError`), `ExecutionCancelledError` (409) on `cancelled`, `OzWaitTimeoutError` when `timeout`
   * passes, `OzAbortError` when `signal` aborts.
   *
   * @example
   * const pointer = await client.agents.execute({ agent: 'writer', user_request: 'Hi', async: true });
   * const result = await client.executions.wait(pointer, { timeout: 60_000 });
   * console.log(result.content);
   */
  wait(execution: ExecutionRef, options?: WaitOptions<Execution>, requestOptions?: PollRequestOptions): APIPromise<ExecutionResult, WaitError> {
    return waitForExecution<Execution, WaitError>(this.#transport, execution, options, requestOptions);
  }
}
