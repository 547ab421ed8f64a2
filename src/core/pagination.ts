import { APIPromise, type ParsedResponse } from './apiPromise.js';

/** One page of a list route. */
export interface Page<Item> {
  data: Item[];
  next_cursor: string | null;
}

/**
 * A page of a list route that can be awaited as one page, or walked item by item across every page with
 * `for await`.
 */
export class PagePromise<Item> extends APIPromise<Page<Item>> implements AsyncIterable<Item> {
  readonly #fetchPage: (cursor: string) => Promise<ParsedResponse<Page<Item>>>;

  constructor(first: Promise<ParsedResponse<Page<Item>>>, fetchPage: (cursor: string) => Promise<ParsedResponse<Page<Item>>>) {
    super(first);
    this.#fetchPage = fetchPage;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    let page: Page<Item> = await this;
    for (;;) {
      yield* page.data;
      if (!page.next_cursor) return;
      page = (await this.#fetchPage(page.next_cursor)).data;
    }
  }
}
