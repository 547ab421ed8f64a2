import { invalidParams } from '../../contract/errors.js';
import { OPENAPI_DOCUMENT, type OperationInfo } from '../../contract/operations.js';
import { interpretedCheck } from '../../contract/schemaInterpreter.js';
import type { SchemaCheck } from '../../contract/schemaValidation.js';

type Json = Record<string, unknown>;

/** What openapi.json says one status of an operation answers: its JSON body schema (or none) and the schema's name. */
export interface ResponseShape {
  /** The JSON body's check, or `null` when the status answers no body. */
  readonly check: SchemaCheck | null;
  /** The component the body is (`Execution`, `ExecutionResult`, `Item`...), or `null`. */
  readonly schemaName: string | null;
}

/** A node of openapi.json with its `$ref`s followed (at most 8 hops). */
export function resolveRef(node: unknown): Json | undefined {
  let out = node as Json | undefined;
  for (let hops = 0; out && typeof out.$ref === 'string' && hops < 8; hops++) {
    let target: unknown = OPENAPI_DOCUMENT;
    for (const part of (out.$ref as string).slice(2).split('/')) target = (target as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    out = target as Json | undefined;
  }
  return out;
}

const shapes = new Map<string, ResponseShape | null>();

/** The response of an operation for a status in openapi.json (`null`: the operation never answers that status). */
export function responseShape(op: OperationInfo, status: number, at: string): ResponseShape | null {
  const key = `${op.id} ${status} ${at}`;
  if (shapes.has(key)) return shapes.get(key)!;
  const operation = ((OPENAPI_DOCUMENT.paths as Json)[op.path] as Json | undefined)?.[op.method.toLowerCase()] as Json | undefined;
  const responses = (operation?.responses ?? {}) as Json;
  const response = resolveRef(responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default);
  let shape: ResponseShape | null = null;
  if (response) {
    const content = response.content as Json | undefined;
    const media = (content?.['application/json'] ?? (content ? Object.values(content)[0] : undefined)) as Json | undefined;
    const schema = media?.schema as Json | undefined;
    const ref = typeof schema?.$ref === 'string' ? schema.$ref : null;
    // Interpreted (no code generated at run time, so stubs work on Workers too), with openapi.json's components
    // beside the schema so that its `#/components/...` references resolve.
    shape = {
      check: schema ? interpretedCheck({ ...schema, components: OPENAPI_DOCUMENT.components }, at) : null,
      schemaName: ref ? ref.slice(ref.lastIndexOf('/') + 1) : null,
    };
  }
  shapes.set(key, shape);
  return shape;
}

/** The statuses an operation answers in openapi.json, for messages. */
function statusesOf(op: OperationInfo): string {
  const operation = ((OPENAPI_DOCUMENT.paths as Json)[op.path] as Json | undefined)?.[op.method.toLowerCase()] as Json | undefined;
  return Object.keys((operation?.responses ?? {}) as Json).join(', ');
}

/**
 * Checks a stub's answer against openapi.json: the status must be one the operation answers, the body must fit
 * that status's schema. A problem throws 422 `invalid_params` naming the field's path under `at`
 * (`answer.body.data[0].status`). Answers the status's shape.
 */
export function checkStubAnswer(op: OperationInfo, status: number, body: unknown, at: string): ResponseShape {
  const shape = responseShape(op, status, `${at}.body`);
  if (!shape)
    throw invalidParams(
      `${at}.status: ${op.id} never answers ${status} in openapi.json (it answers ${statusesOf(op)}); add "unchecked": true to send it anyway.`,
    );
  if (shape.check === null) {
    if (body !== undefined && body !== null) throw invalidParams(`${at}.body: ${op.id} answers ${status} without a body.`);
    return shape;
  }
  if (body === undefined) throw invalidParams(`${at}.body is required: ${op.id} answers ${status} with a body.`, [`${at}.body`]);
  const problem = shape.check(body);
  if (problem) throw invalidParams(`${at}.body does not fit openapi.json's ${status} answer of ${op.id}: ${problem.message}`, problem.missing);
  return shape;
}
