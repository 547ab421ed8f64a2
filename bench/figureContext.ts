import type { BenchMode } from './benchMode.js';
import type { ServerProcess } from './serverProcess.js';

/** What every figure gets: the mode, the repository root, and the embedded server in its own process. */
export interface FigureContext {
  readonly mode: BenchMode;
  readonly root: string;
  readonly oz: ServerProcess;
  /** Progress lines (stderr), so stdout keeps only the table. */
  readonly log: (line: string) => void;
}
