import type { OperationId } from '../../generated/operations.js';
import type { Reply } from '../wire/requestOutcome.js';
import type { RequestContext } from './requestContext.js';

/** An operation's behaviour: it answers the request (or throws an `OzMockError`). */
export type OperationHandler = (ctx: RequestContext) => Reply | Promise<Reply>;

/** Every operation's handler, by operationId: a missing one, or one for no operation, is a compile error. */
export type OperationHandlers = Readonly<Record<OperationId, OperationHandler>>;
