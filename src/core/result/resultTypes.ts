import type { Format } from '../shared/wire.js';
import type { RequestOptions } from '../shared/requestOptions.js';

/**
 * The result type of a call given its options: the parsed envelope on the json and yaml wires, a string on the
 * markdown and text wires. A `format` typed as the whole `Format` union (or optional, as in an object annotated
 * `RequestOptions`) gives the union of both: the type never claims an object where a string may come back.
 */
export type WireResult<Parsed, O> =
  FormatOf<O> extends infer F ? (F extends 'markdown' | 'text' ? string : F extends Format | undefined ? Parsed : never) : never;

/** The `format` an options type carries: its declared type, or `undefined` where it has none. */
type FormatOf<O> = O extends { format?: infer F } ? (unknown extends F ? undefined : F) : undefined;

/** The options type of a call made without options: no `format`, so the json wire's envelope. */
export type DefaultRequestOptions = Omit<RequestOptions, 'format'>;

/** Per-call options that keep a call on a wire answering the parsed envelope (json or yaml). */
export type ParsedWireOptions = RequestOptions & { format?: 'json' | 'yaml' | undefined };

/** Per-call options of a route that always answers server-sent events: the wire choice does not apply. */
export type StreamRequestOptions = Omit<RequestOptions, 'format'>;

/** Per-call options of a list route: pages can be walked on the json and yaml wires only. */
export type ListRequestOptions = Omit<RequestOptions, 'format' | 'idempotencyKey'> & { format?: 'json' | 'yaml' };

/** Per-call options of a route that answers JSON only (models plane, meta, MCP, proxy). */
export type JsonRequestOptions = Omit<RequestOptions, 'format'>;
