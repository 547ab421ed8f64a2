import type { Format, RequestOptions } from './requestOptions.js';

/**
 * The result type of a call given its options: the parsed envelope on the json and yaml wires, a string on the
 * markdown and text wires. A `format` typed as the whole `Format` union gives the union of both.
 */
export type WireResult<Parsed, O> = O extends { format: infer F }
  ? F extends 'markdown' | 'text'
    ? string
    : F extends Format | undefined
      ? Parsed
      : never
  : Parsed;

/** Per-call options of a route that always answers server-sent events: the wire choice does not apply. */
export type StreamRequestOptions = Omit<RequestOptions, 'format'>;

/** Per-call options of a list route: pages can be walked on the json and yaml wires only. */
export type ListRequestOptions = Omit<RequestOptions, 'format' | 'idempotencyKey'> & { format?: 'json' | 'yaml' };

/** Per-call options of a route that answers JSON only (models plane, meta, MCP, proxy). */
export type JsonRequestOptions = Omit<RequestOptions, 'format'>;

/** The media type that asks for each wire. */
export const WIRE_MEDIA_TYPES: Readonly<Record<Format, string>> = {
  json: 'application/json',
  yaml: 'text/yaml',
  markdown: 'text/markdown',
  text: 'text/plain',
};

/** The wire a `Content-Type` names (the spec's Accept mapping), or undefined for any other type. */
export function wireOfContentType(contentType: string | null): Format | undefined {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (!type) return undefined;
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/yaml' || type === 'application/yaml' || type === 'application/x-yaml') return 'yaml';
  if (type === 'text/markdown') return 'markdown';
  if (type === 'text/plain') return 'text';
  return undefined;
}
