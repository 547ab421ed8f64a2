import type { Format } from './format.js';

/** The media type that asks for each wire. */
export const WIRE_MEDIA_TYPES: Readonly<Record<Format, string>> = {
  json: 'application/json',
  yaml: 'text/yaml',
  markdown: 'text/markdown',
  text: 'text/plain',
};
