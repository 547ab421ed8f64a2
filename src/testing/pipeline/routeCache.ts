/**
 * What the router matched for a method and a request path, remembered: the routes are fixed once the server is
 * built, so the same method and path always reach the same operation with the same parameters, and a request that
 * comes again (a load test, a poll loop) skips the router. Bounded: once full it starts over.
 */
export class RouteCache<R> {
  readonly #byMethod = new Map<string, Map<string, R>>();
  #size = 0;

  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** The route remembered for `method` and `path` (the URL's path as sent, before the router decodes it). */
  get(method: string, path: string): R | undefined {
    return this.#byMethod.get(method)?.get(path);
  }

  remember(method: string, path: string, route: R): void {
    if (this.#size >= this.#limit) {
      this.#byMethod.clear();
      this.#size = 0;
    }
    let paths = this.#byMethod.get(method);
    if (!paths) this.#byMethod.set(method, (paths = new Map()));
    if (!paths.has(path)) this.#size++;
    paths.set(path, route);
  }
}
