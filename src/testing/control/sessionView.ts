import { OzNoDemoKeyError } from '../contract/noDemoKeyError.js';
import type { OzSession } from '../public/ozServer.js';
import type { KeyKind } from '../state/state.js';

/** A live session as the control plane lists it. */
export interface SessionView {
  readonly id: string;
  /** The session's copy of the demo platform key; `null` when the baseline has none (`connectOzMock()`'s `apiKey` then throws `OzNoDemoKeyError`). */
  readonly api_key: string | null;
  /** Each key: `api_key` is its value (the one name of a key's value in every control-plane body); `value` is its old name, kept for existing users. */
  readonly keys: ReadonlyArray<{
    readonly id: string;
    readonly account: string;
    readonly name: string;
    readonly kind: KeyKind;
    readonly api_key: string;
    readonly value: string;
  }>;
}

function demoKeyOf(session: OzSession): string | null {
  try {
    return session.apiKey;
  } catch (err) {
    if (err instanceof OzNoDemoKeyError) return null;
    throw err;
  }
}

/** The JSON form of a session (`POST` and `GET /_oz/sessions`). */
export function sessionView(session: OzSession): SessionView {
  return {
    id: session.id,
    api_key: demoKeyOf(session),
    keys: session.keys.map((k) => ({ id: k.id, account: k.account, name: k.name, kind: k.kind, api_key: k.apiKey, value: k.apiKey })),
  };
}
