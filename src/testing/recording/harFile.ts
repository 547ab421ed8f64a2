import { closeSync, openSync, writeSync } from 'node:fs';
import { HAR_CREATOR, type HarEntry } from './har.js';

const TRAILER = '\n]}}\n';

/**
 * A HAR 1.2 file written an entry at a time: each entry overwrites the closing brackets and writes them again
 * after itself, so the file is a whole HAR document after every exchange and nothing of it is held in memory.
 */
export class HarFileWriter {
  readonly #fd: number;
  /** Where the closing brackets start. */
  #end: number;
  #count = 0;

  constructor(path: string) {
    this.#fd = openSync(path, 'w');
    const head = `{"log":{"version":"1.2","creator":${JSON.stringify(HAR_CREATOR)},"entries":[`;
    this.#end = writeSync(this.#fd, head + TRAILER, 0) - Buffer.byteLength(TRAILER);
  }

  /** How many entries the file holds. */
  get count(): number {
    return this.#count;
  }

  append(entry: HarEntry): void {
    const text = `${this.#count === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`;
    const written = writeSync(this.#fd, text + TRAILER, this.#end);
    this.#end += written - Buffer.byteLength(TRAILER);
    this.#count++;
  }

  close(): void {
    closeSync(this.#fd);
  }
}
