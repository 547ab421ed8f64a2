import type { OzSession } from '../public/ozServer.js';

/** A live session as the control plane lists it. */
export interface SessionView {
  readonly id: string;
  readonly api_key: string | null;
  readonly keys: ReadonlyArray<{ readonly account: string; readonly name: string; readonly kind: string; readonly value: string }>;
}

/** The JSON form of a session (`POST` and `GET /_oz/sessions`). */
export function sessionView(session: OzSession): SessionView {
  return { id: session.id, api_key: session.apiKey, keys: session.keys.map((k) => ({ account: k.account, name: k.name, kind: k.kind, value: k.value })) };
}
