import { logOf } from '../shared/logger.js';
import { AnswerChecker, type ValidationReport } from './answerChecker.js';
import type { Call, CallClient } from '../shared/call.js';
import { decodeBody } from '../shared/responseBody.js';
import type { OzResponseValidationError } from '../errors/responseValidationError.js';
import type { Format } from '../shared/requestOptions.js';

// Answers checked against openapi.json (`validate: 'warn' | 'strict'`): used only by calls made with validation
// on. The validators are an optional part, loaded on the first such call (through the layer above's loader).

// The checker of each client (its warnings are once per operation and client).
const CHECKERS = new WeakMap<CallClient, AnswerChecker>();

/** The answer checker of a call's client, made on its first call with validation on. */
function checkerOf(client: CallClient): AnswerChecker {
  let checker = CHECKERS.get(client);
  if (checker === undefined) {
    checker = new AnswerChecker(client.loadValidators);
    CHECKERS.set(client, checker);
  }
  return checker;
}

function validationReport(call: Call, response: Response): ValidationReport {
  const span = call.span;
  return {
    log: logOf(call.settings.logging),
    tag: call.tag,
    requestId: response.headers.get('x-request-id') ?? undefined,
    ...(span ? { onMismatch: (error: OzResponseValidationError) => span.responseInvalid(error) } : {}),
  };
}

/**
 * A body read with validation on: JSON and YAML answers are checked against the operation's schema (markdown
 * and text answers are strings, not checked); under `strict` a body that does not parse is a mismatch at `$`.
 */
export async function checkedBody(call: Call, response: Response, text: string, wire: Format | undefined): Promise<unknown> {
  const report = validationReport(call, response);
  const checker = checkerOf(call.client);
  let data: unknown;
  try {
    data = await decodeBody(text, response.headers.get('content-type'), call.format);
  } catch (cause) {
    checker.unparsed(call.settings.validate, call.op.id, text, cause, report);
    throw cause;
  }
  if (wire === 'json' || wire === 'yaml') {
    const validators = await checker.validators();
    checker.check(validators, call.settings.validate, call.op.id, `${call.op.id}_${response.status}`, data, report);
  }
  return data;
}

/** The check of each event of a stream answered with validation on. */
export async function eventCheck(call: Call, response: Response): Promise<(item: unknown) => void> {
  const checker = checkerOf(call.client);
  const validators = await checker.validators();
  const report = validationReport(call, response);
  return (item) => checker.check(validators, call.settings.validate, call.op.id, `${call.op.id}_event`, item, report);
}
