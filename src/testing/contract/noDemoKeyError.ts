/**
 * Thrown when a session's `apiKey` is read but its baseline has no demo platform key (a server made with
 * `seed: 'empty'`, or whose fixtures alone made the accounts): read the session's `keys` instead, each with its
 * `apiKey`.
 */
export class OzNoDemoKeyError extends Error {
  override readonly name = 'OzNoDemoKeyError';

  constructor(sessionId: string) {
    super(
      `Session ${sessionId} has no demo key: its baseline has no demo account (seed 'empty', or accounts from fixtures only). Use session.keys, each key with its apiKey.`,
    );
  }
}
