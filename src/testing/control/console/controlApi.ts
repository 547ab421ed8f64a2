/** An error answer of the control plane (its envelope's code and message). */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The control plane as the page calls it: every request carries the admin token, and a path of a session's
 * world goes under `/_oz/sessions/{id}/` when a session is chosen. Nothing here can do what a script cannot.
 */
export class ControlApi {
  constructor(
    readonly token: string,
    readonly session: string | null,
  ) {}

  /** A control-plane path (`/journal`) in the chosen session's world. */
  scoped(path: string): string {
    return this.session === null ? `/_oz${path}` : `/_oz/sessions/${encodeURIComponent(this.session)}${path}`;
  }

  /** A path of the server itself (`/sessions`), whatever the session. */
  serverPath(path: string): string {
    return `/_oz${path}`;
  }

  headers(): Record<string, string> {
    return { authorization: `Bearer ${this.token}` };
  }

  async call<T>(method: string, url: string, body?: unknown): Promise<T> {
    const headers = this.headers();
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, { method, headers, body: body === undefined ? null : JSON.stringify(body), cache: 'no-store', credentials: 'omit' });
    const text = await response.text();
    const parsed: unknown = text === '' ? null : JSON.parse(text);
    if (!response.ok) {
      const error = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
      throw new ControlError(response.status, error?.code ?? 'error', error?.message ?? `${method} ${url} answered ${response.status}.`);
    }
    return parsed as T;
  }
}
