import { OzUsageError } from '../errors/errors.js';
import type { Operation } from '../shared/operation.js';
import { yamlCodec } from '../shared/yaml.js';
import { unwritableBody } from './unwritableBody.js';

/**
 * A call's body written as JSON. A body JSON cannot write (a cycle, a `BigInt`, a getter that throws) is the
 * caller's {@link OzUsageError}, saying what and where, before anything is sent.
 */
export function encodeJsonBody(op: Operation, body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (cause) {
    throw unwritableBody(op.id, body, 'JSON', cause);
  }
}

/**
 * A call's body written as YAML (`bodyFormat: 'yaml'`), for an operation that takes one; for any other, or a body
 * YAML cannot write, the caller's {@link OzUsageError} before anything is sent.
 */
export async function encodeYamlBody(op: Operation, body: unknown): Promise<string> {
  if (!op.yamlBody) throw new OzUsageError(`${op.id} (${op.method} ${op.path}) does not take a YAML body; send it as JSON.`);
  const codec = await yamlCodec();
  try {
    return codec.stringify(body);
  } catch (cause) {
    throw unwritableBody(op.id, body, 'YAML', cause);
  }
}
