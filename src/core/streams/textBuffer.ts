// Parts gathered before they are joined: few enough to join often, many enough that a joined string per delta
// (and V8's cons-string chain of `text += delta`) never builds up.
const JOIN_EVERY = 512;

/**
 * The text of a stream as its deltas arrive. Memory stays close to the text's own size, however small the
 * deltas: parts are joined every few hundred.
 */
export class TextBuffer {
  #joined = '';
  #parts: string[] = [];

  /** Adds a delta. */
  append(delta: string): void {
    this.#parts.push(delta);
    if (this.#parts.length >= JOIN_EVERY) this.#join();
  }

  /** The whole text so far. */
  toString(): string {
    this.#join();
    return this.#joined;
  }

  #join(): void {
    if (this.#parts.length === 0) return;
    this.#joined += this.#parts.join('');
    this.#parts = [];
  }
}
