import { OzAbortError, OzAPIError, OzConnectionError, OzError, OzMcpError, OzUsageError, SignInError, type Format } from '../index.js';
import { ProfileFileError } from '../profiles/profileFileError.js';
import { CliUsageError } from './cliUsageError.js';
import { apiErrorText } from './errorOutput.js';
import { EXIT, type ExitCode } from './exitCodes.js';
import { ExpansionError, type OutputStream } from './output.js';

/** The exit code of an error, by family (see {@link EXIT}). */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof CliUsageError || error instanceof OzUsageError || error instanceof ProfileFileError) return EXIT.usage;
  if (error instanceof OzAbortError) return EXIT.interrupted;
  if (error instanceof SignInError) return error.reason === 'aborted' ? EXIT.interrupted : error.reason === 'timeout' ? EXIT.connection : EXIT.api;
  if (error instanceof OzConnectionError) return EXIT.connection;
  return EXIT.api;
}

/**
 * Writes an error on stderr and answers its exit code: an error answer of the service as its envelope on the
 * chosen wire; anything else as one line (never a stack trace: `OZ_DEBUG=1` adds it for an unexpected error).
 */
export async function reportError(error: unknown, format: Format, stderr: OutputStream, debug: boolean): Promise<ExitCode> {
  const code = exitCodeOf(error);
  if (error instanceof OzAPIError) {
    stderr.write(await apiErrorText(error, format, stderr.isTTY === true));
  } else if (code === EXIT.interrupted) {
    stderr.write('oz: interrupted.\n');
  } else if (
    error instanceof OzError ||
    error instanceof CliUsageError ||
    error instanceof ProfileFileError ||
    error instanceof OzMcpError ||
    error instanceof ExpansionError
  ) {
    stderr.write(`oz: ${error.message}\n`);
  } else {
    const problem = error instanceof Error ? error : new Error(String(error));
    stderr.write(`oz: unexpected error: ${problem.message}\n${debug && problem.stack ? `${problem.stack}\n` : ''}`);
  }
  return code;
}
