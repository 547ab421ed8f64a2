/** The exit codes of `oz`, as the contract fixes them: a script branches on them. */
export const EXIT = {
  /** Success. */
  ok: 0,
  /** The service answered an error (any status): the envelope is on stderr. */
  api: 1,
  /** A bad command, flag, value, body or profile, caught before anything was sent. */
  usage: 2,
  /** No answer: a connection error or a timeout (of an attempt, a stream's silence or a wait). */
  connection: 3,
  /** Interrupted (Ctrl+C). */
  interrupted: 130,
} as const;

/** One of {@link EXIT}'s values. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
