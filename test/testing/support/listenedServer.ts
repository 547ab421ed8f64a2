import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createOzServer, type OzListener, type OzServer, type OzServerOptions } from '../../../src/testing/index.js';

/** The suite's embedded server and its loopback listener, read once the suite started. */
export interface ListenedServer {
  readonly server: OzServer;
  readonly listener: OzListener;
}

/**
 * One embedded server for the suite, listening on loopback too (in process and over HTTP), reset before each test
 * and closed after the suite: the hooks are registered by this call.
 */
export function listenedServer(options?: OzServerOptions): ListenedServer {
  let server: OzServer | undefined;
  let listener: OzListener | undefined;
  beforeAll(async () => {
    server = createOzServer(options);
    listener = await server.listen();
  });
  afterAll(async () => {
    await listener?.close();
    await server?.close();
  });
  beforeEach(() => server!.reset());
  return {
    get server() {
      return server!;
    },
    get listener() {
      return listener!;
    },
  };
}
