import type { OutputStream } from './output.js';

// C0 but tab and newline, DEL, and C1 (U+0080-U+009F, which some terminals read as ESC [ and the like).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text with its control characters written as `\uXXXX` escapes (C0 but tab and newline, DEL, C1): the escape
 * sequences they start (`ESC ]0;title BEL`, `ESC [2J`, a single-byte CSI) lose their introducer and print as
 * plain characters, so a terminal shows what the service sent and does nothing it says.
 */
export function escapedControls(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A stream of `oz`'s own control sequences (the `--wait` progress line's carriage return and line clear). */
export interface ControlStream extends OutputStream {
  /** Writes `oz`'s own sequence as it is. */
  writeControl(sequence: string): unknown;
}

/**
 * The stream `oz` prints through: on a terminal every write has its control characters escaped
 * ({@link escapedControls}), whatever part of the text came from the service (results, stream tokens, error
 * messages, profile fields, the progress line's status); piped or redirected, the wire's bytes as they came.
 */
export function terminalStream(stream: OutputStream): ControlStream {
  const tty = stream.isTTY === true;
  return {
    isTTY: stream.isTTY,
    write: (text: string) => stream.write(tty ? escapedControls(text) : text),
    writeControl: (sequence: string) => stream.write(sequence),
  };
}
