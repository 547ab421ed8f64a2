import { OzUsageError } from '../errors/errors.js';
import type { Operation } from '../operation.js';
import { yamlCodec } from '../answer/yaml.js';

/**
 * A call's body written as YAML (`bodyFormat: 'yaml'`), for an operation that takes one; for any other, the
 * caller's {@link OzUsageError} before anything is sent.
 */
export async function encodeYamlBody(op: Operation, body: unknown): Promise<string> {
  if (!op.yamlBody) throw new OzUsageError(`${op.id} (${op.method} ${op.path}) does not take a YAML body; send it as JSON.`);
  return (await yamlCodec()).stringify(body);
}
