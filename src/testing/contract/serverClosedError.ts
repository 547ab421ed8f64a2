/**
 * Thrown (as a rejection) by `server.fetch`, `server.handle` and `server.listen()` once `server.close()` was called:
 * a closed server answers no more requests, so a test that kept using one fails with this instead of answers
 * from a server whose background work has stopped.
 */
export class OzServerClosedError extends Error {
  override readonly name = 'OzServerClosedError';

  constructor(what: string) {
    super(`This embedded Oz server is closed (server.close() was called): ${what} answers no more requests. Create a new one with createOzServer().`);
  }
}
