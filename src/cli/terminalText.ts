import { escapedControls } from '../core/shared/printable.js';
import type { OutputStream } from './output.js';

export { escapedControls } from '../core/shared/printable.js';

const UTF8 = new TextDecoder();
const asText = (text: string | Uint8Array): string => (typeof text === 'string' ? text : UTF8.decode(text));

/** A stream of `oz`'s own control sequences (the `--wait` progress line's carriage return and line clear). */
export interface ControlStream extends OutputStream {
  /** Writes `oz`'s own sequence as it is. */
  writeControl(sequence: string): unknown;
}

/**
 * The stream `oz` prints answers through: on a terminal every write has its control characters escaped
 * ({@link escapedControls}), whatever part of the text came from the service (results, stream tokens); piped or
 * redirected, the wire's bytes as they came.
 */
export function terminalStream(stream: OutputStream): ControlStream {
  const tty = stream.isTTY === true;
  return {
    isTTY: stream.isTTY,
    write: (text: string | Uint8Array) => stream.write(tty ? escapedControls(asText(text)) : text),
    writeControl: (sequence: string) => stream.write(sequence),
  };
}

/**
 * The stream of `oz`'s own lines (stderr: errors, progress, the sign-in URL): every write has its control
 * characters escaped, on a terminal or piped (a log read later on a terminal is a terminal too); only `oz`'s own
 * sequences, through `writeControl`, are written as they are.
 */
export function ownLinesStream(stream: OutputStream): ControlStream {
  return {
    isTTY: stream.isTTY,
    write: (text: string | Uint8Array) => stream.write(escapedControls(asText(text))),
    writeControl: (sequence: string) => stream.write(sequence),
  };
}

/** Writes one of `oz`'s own lines on `stream` (stdout): its control characters escaped, on a terminal or piped. */
export function writeOwn(stream: OutputStream, text: string): void {
  stream.write(escapedControls(text));
}
