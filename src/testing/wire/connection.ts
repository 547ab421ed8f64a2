import type { IncomingMessage } from 'node:http';

/** What a fully buffered answer is made of. */
export interface AnswerParts {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string | null;
}

/** Which mount a request came through. */
export type MountKind = 'fetch' | 'http' | 'msw';

/** Which address the request was sent to: the API's base URL or the separate MCP server's `{mcp_url}`. */
export type Surface = 'api' | 'mcp';

/**
 * A request's body as the mount received it, not read yet: a Fetch-API stream (in process, msw) or Node's request
 * (over HTTP). The server reads it when a step needs it (`wire/bodyText.ts`), never by calling back into the mount.
 */
export type RequestBody =
  { readonly kind: 'web'; readonly stream: ReadableStream<Uint8Array> | null } | { readonly kind: 'node'; readonly incoming: IncomingMessage };

/**
 * What a mount hands the server of a request: its headers, read each mount's cheapest way (over HTTP straight
 * from Node's request, so no Fetch-API `Request` is built for them), and its body still to read.
 */
export interface RequestReader {
  /** A header's value (several joined by `, `), or `null`. */
  header(name: string): string | null;
  /** The body, still to read (see `readBodyText` in `wire/bodyText.ts`). */
  readonly body: RequestBody;
  /**
   * What the journal keeps of the request's headers: a function that builds them as a Fetch-API `Headers` when a
   * test reads them. It holds only the headers, so a kept entry does not keep the whole request alive.
   */
  headerSource(): () => Headers;
}

/** The reader of a Fetch-API `Request`. */
export function fetchRequestReader(request: Request): RequestReader {
  return {
    header: (name) => request.headers.get(name),
    // A getter: the stream is looked at only when a step reads the body.
    body: {
      kind: 'web',
      get stream() {
        return request.body;
      },
    },
    headerSource: () => () => request.headers,
  };
}

/**
 * The mount's side of one request: where it came from and how the mount drops it. The shared handler calls
 * {@link Connection.drop} (no answer at all) and {@link Connection.cut} (a stream cut mid-way); each mount
 * does what a broken connection looks like there.
 */
export class Connection {
  #cutHandler: (() => void) | null = null;
  #wasCut = false;
  readonly #destroySocket: (() => void) | null;

  constructor(
    readonly mount: MountKind,
    readonly surface: Surface,
    /** The client's address: the socket's over HTTP; the option or `x-oz-mock-client-address` in process. */
    readonly remoteAddress: string,
    /** How to read the request's headers and body. */
    readonly reader: RequestReader,
    destroySocket: (() => void) | null = null,
    /** The listener the request came in on (HTTP only): the address it is bound to and its port. */
    readonly listener: { readonly host: string; readonly port: number } | null = null,
  ) {
    this.#destroySocket = destroySocket;
  }

  /** Drop the connection without an answer. */
  drop(): void {
    this.#destroySocket?.();
  }

  /** Cut the connection while a streamed body is under way: what was sent before still arrives. */
  cut(): void {
    this.#wasCut = true;
    this.#cutHandler?.();
  }

  /** The mount's way to cut the stream it hands out (in process and msw: error the body; HTTP: close the socket). */
  onCut(handler: () => void): void {
    this.#cutHandler = handler;
    if (this.#wasCut) handler();
  }
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are the same client. */
export function normalizeAddress(address: string | undefined): string {
  if (!address) return '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
