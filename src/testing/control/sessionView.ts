import type { OzSession } from '../public/ozServer.js';

/** A live session as the control plane lists it. */
export interface SessionView {
  readonly id: string;
  readonly api_key: string | null;
  /** Each key: `api_key` is its value (the one name of a key's value in every control-plane body); `value` is its old name, kept for existing users. */
  readonly keys: ReadonlyArray<{ readonly account: string; readonly name: string; readonly kind: string; readonly api_key: string; readonly value: string }>;
}

/** The JSON form of a session (`POST` and `GET /_oz/sessions`). */
export function sessionView(session: OzSession): SessionView {
  return { id: session.id, api_key: session.apiKey, keys: session.keys.map((k) => ({ account: k.account, name: k.name, kind: k.kind, api_key: k.value, value: k.value })) };
}
