import { parseArgs } from 'node:util';
import { startRecorder } from './recorder.js';

/** `oz-mock record`'s help. */
export const RECORD_HELP = `oz-mock record: a recording proxy in front of an Oz service.

Usage: oz-mock record --target URL [--out DIR] [--port N] [--host ADDR]

  --target <url>   the service to forward every request to (required)
  --out <dir>      where recording.har (written as exchanges complete) and stubs.json (written on exit) go
                   (default ./oz-recording)
  --port <n>       the proxy's port (default 4020; 0 picks a free one)
  --host <addr>    the address to listen on (default 127.0.0.1)
  --json           print one JSON line ({ url, har, stubs }) instead of the text
  -h, --help       this help

Keys are forwarded and never written: a recorded Authorization or X-API-Key reads <redacted>.
Stop with Ctrl+C (SIGINT) or SIGTERM: stubs.json is written then.
`;

/** What a command prints and how it ends (the bin's process, or a test's). */
export interface CommandIo {
  out(text: string): void;
  err(text: string): void;
  /** Ends the program with this exit code. */
  exit(code: number): void;
  /** Calls `stop` once on SIGINT or SIGTERM. */
  onStop(stop: () => void): void;
}

/** Runs `oz-mock record` with its arguments (after `record`): exit 2 for a usage error, 1 when it cannot listen. */
export async function recordCommand(args: readonly string[], io: CommandIo): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        target: { type: 'string' },
        out: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    io.err(`oz-mock record: ${(err as Error).message}\n\n${RECORD_HELP}`);
    return io.exit(2);
  }
  if (values.help) {
    io.out(RECORD_HELP);
    return io.exit(0);
  }
  const usage = (message: string) => {
    io.err(`oz-mock record: ${message}\n`);
    io.exit(2);
  };
  if (values.target === undefined) return usage('--target URL is required (the service to record)');
  if (!URL.canParse(values.target) || !/^https?:$/.test(new URL(values.target).protocol))
    return usage(`--target must be an http or https URL, got ${values.target}`);
  const portText = values.port ?? '4020';
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) return usage('--port must be a port number from 0 to 65535');
  let recorder;
  try {
    recorder = await startRecorder({ target: values.target, outDir: values.out ?? 'oz-recording', port: Number(portText), host: values.host ?? '127.0.0.1' });
  } catch (err) {
    io.err(`oz-mock record: cannot start: ${(err as Error).message}\n`);
    return io.exit(1);
  }
  const started = recorder;
  io.onStop(() => {
    void started.close().then(
      (summary) => {
        io.out(`oz-mock record: ${summary.exchanges} exchanges in ${started.harPath}, ${summary.stubs} stubs in ${started.stubsPath}\n`);
        for (const left of summary.leftOut) io.out(`  entry ${left.entry} gives no stub: ${left.why}\n`);
        io.exit(0);
      },
      (err: unknown) => {
        io.err(`oz-mock record: could not write ${started.stubsPath}: ${(err as Error).message}\n`);
        io.exit(1);
      },
    );
  });
  if (values.json) io.out(`${JSON.stringify({ url: started.url, har: started.harPath, stubs: started.stubsPath })}\n`);
  else
    io.out(
      `oz-mock record: forwarding ${started.url} to ${values.target}\n  OZ_BASE_URL=${started.url}\n  recording to ${started.harPath}\nStop with Ctrl+C.\n`,
    );
}
