/** A bad command line (command, flag, value or body), found before anything is sent: exit 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}
