/** A response wire: the format one payload travels in. */
export type Format = 'json' | 'yaml' | 'markdown' | 'text';
