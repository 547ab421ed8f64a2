/** Why a profile file could not be used. */
export type ProfileFileProblem = 'unreadable' | 'mode' | 'malformed' | 'unwritable';

/**
 * The profile file is there but cannot be used: it cannot be read, others may read it (group or world
 * permissions), or it is not a profile document. The message names the file and what to do.
 */
export class ProfileFileError extends Error {
  override name = 'ProfileFileError';
  /** The file's path. */
  readonly path: string;
  readonly problem: ProfileFileProblem;

  constructor(path: string, problem: ProfileFileProblem, message: string, options?: { cause?: unknown }) {
    super(`${path}: ${message}`, options);
    this.path = path;
    this.problem = problem;
  }
}
