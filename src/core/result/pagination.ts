import { APIPromise, type CallStarter, type ParsedResponse } from './apiPromise.js';
import { abortError, type OzError, OzUsageError } from '../errors/errors.js';
import { isJsonObject, unexpectedAnswer } from '../errors/unexpectedAnswer.js';
import type { Operation, RequestInput } from '../shared/operation.js';
import type { RequestOptions } from '../shared/requestOptions.js';

/** The body of one page of a list route, as the service sends it. */
export interface PageBody<Item> {
  data: Item[];
  next_cursor: string | null;
}

/** Fetches the page at a cursor with the list call's query and options. */
export type PageFetcher<Item> = (cursor: string) => Promise<ParsedResponse<PageBody<Item>>>;

/** The query parameters of the next page: the list call's own, plus this cursor. */
export interface NextPageParams {
  cursor: string;
}

/**
 * One page of a list route: its `data` and `next_cursor` as sent (so it compares and serializes as the body
 * does), with ways to the next pages. `for await` over a page walks its items, then every later page's.
 */
export class Page<Item> implements PageBody<Item>, AsyncIterable<Item> {
  /** The items of this page. */
  data: Item[];
  /** The cursor of the next page; null (or empty) on the last page. */
  next_cursor: string | null;
  readonly #response: Response;
  readonly #fetchPage: PageFetcher<Item>;
  readonly #signal: AbortSignal | undefined;

  constructor(body: PageBody<Item>, response: Response, fetchPage: PageFetcher<Item>, signal?: AbortSignal) {
    if (!isJsonObject(body) || !Array.isArray(body.data)) throw unexpectedAnswer('a list call', 'a page (`data`, `next_cursor`)', body);
    this.data = body.data;
    this.next_cursor = body.next_cursor ?? null;
    this.#response = response;
    this.#fetchPage = fetchPage;
    this.#signal = signal;
  }

  /** The raw `Response` of this page. */
  get response(): Response {
    return this.#response;
  }

  /**
   * Whether a next page exists: `next_cursor` is a non-empty string and this page has items. An empty page ends
   * the walk whatever its cursor says (a server that keeps answering empty pages with a cursor would otherwise
   * be asked forever without one item to yield).
   */
  hasNextPage(): boolean {
    return this.data.length > 0 && this.nextPageParams() !== null;
  }

  /** The parameters of the next page's request (`{cursor}`), or null on the last page. */
  nextPageParams(): NextPageParams | null {
    return typeof this.next_cursor === 'string' && this.next_cursor !== '' ? { cursor: this.next_cursor } : null;
  }

  /** Fetches the next page with the same query and options. Throws `OzUsageError` on the last page. */
  async getNextPage(): Promise<Page<Item>> {
    const next = this.nextPageParams();
    if (next === null || !this.hasNextPage()) {
      throw new OzUsageError(`This is the last page (${next === null ? 'next_cursor is null' : 'it has no items'}); check hasNextPage() first.`);
    }
    const { data, response } = await this.#fetchPage(next.cursor);
    return new Page(data, response, this.#fetchPage, this.#signal);
  }

  /** This page, then every later page, fetched one at a time as the loop asks for them. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    // The walk starts at this page and moves on from it.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    let page: Page<Item> = this;
    for (;;) {
      yield page;
      if (!page.hasNextPage()) return;
      page = await page.getNextPage();
    }
  }

  /** Every item of this page and the later ones. The call's `signal` stops the walk at once. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) {
      for (const item of page.data) {
        if (this.#signal?.aborted) throw abortError(this.#signal);
        yield item;
      }
    }
  }
}

/**
 * The first page of a list route, like openai-node's `PagePromise`: `await` it for one {@link Page}
 * (`data`, `next_cursor`, `hasNextPage()`, `getNextPage()`), or walk every item of every page with
 * `for await`. Later pages are fetched with the call's query and options as the walk reaches them; aborting
 * the call's `signal` stops the walk at once with `OzAbortError`.
 *
 * @example
 * for await (const tool of client.tools.list({ limit: 50 })) console.log(tool.name);
 * const first = await client.tools.list();
 * if (first.hasNextPage()) await first.getNextPage();
 */
export class PagePromise<Item, E = OzError> extends APIPromise<Page<Item>, E> implements AsyncIterable<Item> {
  constructor(first: Promise<ParsedResponse<PageBody<Item>>> | CallStarter<PageBody<Item>>, fetchPage: PageFetcher<Item>, signal?: AbortSignal) {
    super((promise) =>
      (typeof first === 'function' ? first(promise) : first).then((parsed) =>
        // A body handed over by asResponse() is left unread: there is no page to make.
        parsed.unread ? (parsed as ParsedResponse<never>) : { ...parsed, data: new Page(parsed.data, parsed.response, fetchPage, signal) },
      ),
    );
  }

  /** Every page, starting with this one. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    yield* (await this).iterPages();
  }

  /** Every item of every page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    yield* await this;
  }
}

/** What a list call is sent through (the transport is one). */
export interface PageSource {
  call<T>(op: Operation, input: RequestInput, options: RequestOptions, mode: 'parse', handoff?: object): Promise<ParsedResponse<T>>;
}

/**
 * Sends one call of a list route through `source`; the answer can be walked across pages. The first page keeps
 * the caller's own `cursor` (a stored one); later pages send the answer's `next_cursor`.
 */
export function listPages<Item, E = OzError>(source: PageSource, op: Operation, input: RequestInput, options: RequestOptions = {}): PagePromise<Item, E> {
  const page = (cursor: string | undefined, handoff?: object) =>
    source.call<PageBody<Item>>(op, cursor === undefined ? input : { ...input, query: { ...input.query, cursor } }, options, 'parse', handoff);
  return new PagePromise<Item, E>((handoff) => page(undefined, handoff), page, options.signal);
}
