/** The pace of the server's work on its clock (see `OzServerOptions.timing`). */
export interface Timing {
  /** Between the steps of a run, and of an item's walk. */
  readonly stepMs: number;
  /** Between the tokens of a streamed answer. */
  readonly tokenMs: number;
  /** Between the keep-alive comments of an idle event stream. */
  readonly pingMs: number;
  /** The poll interval an unfinished execution suggests; 0: the run's own timing. */
  readonly pollMs: number;
}
