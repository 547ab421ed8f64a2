/** The default bound on live sessions (`--max-sessions`, the `maxSessions` option). */
export const DEFAULT_MAX_SESSIONS = 64;
