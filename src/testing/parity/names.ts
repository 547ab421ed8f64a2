import { DEMO_AGENTS, DEMO_NAMES, DEMO_TOOLS } from '../state/demoSeed.js';

/** The names a parity run needs on the target (`--company`, `--building`, `--tool`, `--agent`, `--workflow`). */
export interface ParityNames {
  readonly company: string;
  readonly building: string;
  readonly tool: string;
  readonly agent: string;
  readonly workflow: string;
}

/** The demo seed's names: the defaults. */
export const DEFAULT_PARITY_NAMES: ParityNames = {
  company: DEMO_NAMES.company,
  building: DEMO_NAMES.building,
  tool: DEMO_TOOLS[0]!.name,
  agent: DEMO_AGENTS[0]!.name,
  workflow: DEMO_NAMES.workflow,
};

/** The demo tool a cancel runs (it waits as long as asked), and the connection a demo tool needs (the proxy's provider). */
export const WAITING_TOOL: string = DEMO_TOOLS.find((t) => t.required?.length === 1 && t.required[0] === 'ms')!.name;
export const PROVIDER: string = DEMO_TOOLS.find((t) => typeof t.connection === 'string')!.connection!;
