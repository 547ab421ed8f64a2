import { SESSION_CONTROLS, type OzServer, type OzSessionControls } from '../public/ozServer.js';

/** The session's share of a world's controls. */
export function sessionControls(server: OzServer): OzSessionControls {
  return { ...(Object.fromEntries(SESSION_CONTROLS.map((name) => [name, server[name]])) as unknown as OzSessionControls), listKeys: server.keys.list };
}
