import { OzTimeoutError } from '../errors/errors.js';

/**
 * `executions.wait()` (or a pointer's `wait()`) ran past its own `timeout` before the execution finished. The
 * run goes on: wait again, or read it later with `client.executions.get(error.executionId)`.
 */
export class OzWaitTimeoutError extends OzTimeoutError {
  override name = 'OzWaitTimeoutError';
  /** The execution waited for. */
  readonly executionId: string;
  /** The wait's timeout, in milliseconds. */
  readonly timeout: number;
  /** The status of the last record read (`queued` or `running`); undefined when none was read in time. */
  readonly lastStatus: string | undefined;

  constructor(executionId: string, timeout: number, lastStatus: string | undefined, options?: ErrorOptions) {
    super(`Execution ${executionId} is still ${lastStatus ?? 'unfinished'} after waiting ${timeout} ms (the wait's timeout); the run goes on.`, options);
    this.executionId = executionId;
    this.timeout = timeout;
    this.lastStatus = lastStatus;
  }
}
