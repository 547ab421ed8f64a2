// C0 but tab and newline, DEL, and C1 (U+0080-U+009F, which some terminals read as ESC [ and the like).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from a server with its control characters written as `\uXXXX` escapes (C0 but tab and newline, DEL, C1):
 * the escape sequences they start (`ESC ]0;title BEL`, `ESC [2J`, a single-byte CSI) lose their introducer and print
 * as plain characters, so a terminal that shows the text shows what was sent and does nothing it says. Text
 * without control characters comes back as it is.
 */
export function escapedControls(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
