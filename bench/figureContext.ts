import type { BenchMode } from './benchMode.js';
import type { BuiltPackage, PackageModules } from './builtPackage.js';
import type { ServerProcess } from './serverProcess.js';

/**
 * What every figure gets: the mode, the repository root, the built package and its modules, and the embedded
 * server (of that build) in its own process.
 */
export interface FigureContext {
  readonly mode: BenchMode;
  readonly root: string;
  readonly pkg: BuiltPackage;
  readonly modules: PackageModules;
  readonly oz: ServerProcess;
  /** Progress lines (stderr), so stdout keeps only the table. */
  readonly log: (line: string) => void;
}
