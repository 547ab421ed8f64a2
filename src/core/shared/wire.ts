/** A response wire: the format one payload travels in. */
export type Format = 'json' | 'yaml' | 'markdown' | 'text';

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
