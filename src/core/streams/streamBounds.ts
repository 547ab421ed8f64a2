import { OzUsageError } from '../errors/errors.js';

/** The idle timeout of a stream, by default: 5 minutes of waiting without an event (pings do not count). */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/** The bound on one event of a stream, by default: 16 MiB. */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

/**
 * The idle timeout, size bound and overall deadline of a stream (each given or its default), checked: the caller's
 * {@link OzUsageError} when out of range.
 */
export function checkedStreamBounds(options: { idleTimeout?: number | undefined; maxEventBytes?: number | undefined; streamTimeout?: number | undefined }): {
  idleTimeout: number;
  maxEventBytes: number;
  streamTimeout: number;
} {
  const idleTimeout = options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (!(idleTimeout > 0)) throw new OzUsageError(`idleTimeout must be a number of milliseconds > 0 (or Infinity), not ${idleTimeout}.`);
  const maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  const streamTimeout = options.streamTimeout ?? Infinity;
  if (!(maxEventBytes >= 1) || (Number.isFinite(maxEventBytes) && !Number.isInteger(maxEventBytes))) {
    throw new OzUsageError(`maxEventBytes must be a whole number of bytes >= 1 (or Infinity), not ${maxEventBytes}.`);
  }
  if (!(streamTimeout > 0)) throw new OzUsageError(`streamTimeout must be a number of milliseconds > 0 (or Infinity), not ${streamTimeout}.`);
  return { idleTimeout, maxEventBytes, streamTimeout };
}
