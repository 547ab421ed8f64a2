import { stringifyYaml } from '../core/shared/yaml.js';
import type { ErrorBody, Format, OzAPIError } from '../index.js';
import { expandsWithin } from './expansionBound.js';
import { jsonText } from './output.js';

/** The envelope's fields that the markdown wire renders under the message, in this order. */
const MARKDOWN_FIELDS = ['missing', 'contract', 'hint', 'connect', 'execution_id'] as const;

/**
 * An error answer of the service in the chosen wire: the envelope `{error: {...}}` as JSON (pretty on a
 * terminal) or YAML; on markdown the code, message and the fields it renders; on text `code: message` then
 * `missing: ...`, as the service's text wire writes it (also the JSON or YAML of an envelope whose YAML aliases
 * would expand past the bound).
 */
export async function apiErrorText(error: OzAPIError, format: Format, pretty: boolean): Promise<string> {
  const body: ErrorBody = error.error ?? { code: error.code, message: error.message };
  const envelope = { error: { ...body, code: body.code || error.code } };
  const missing = error.missing?.length ? error.missing.join(', ') : undefined;
  // An envelope whose YAML aliases would grow past the bound when written out is said in one line.
  if ((format === 'json' || format === 'yaml') && !expandsWithin(envelope)) return `${envelope.error.code}: ${body.message}\n`;
  switch (format) {
    case 'json':
      return jsonText(envelope, pretty);
    case 'yaml':
      return await stringifyYaml(envelope);
    case 'markdown': {
      const lines = [`**${envelope.error.code}**: ${body.message}`];
      for (const field of MARKDOWN_FIELDS) {
        const value = field === 'execution_id' ? (body.execution_id ?? error.executionId) : body[field];
        if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) continue;
        lines.push(`- ${field}: ${Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
      }
      return `${lines.join('\n')}\n`;
    }
    case 'text':
      return `${envelope.error.code}: ${body.message}\n${missing ? `missing: ${missing}\n` : ''}`;
  }
}
