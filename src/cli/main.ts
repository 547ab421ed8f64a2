#!/usr/bin/env node
/**
 * `oz`: the command line of the Oz service. Its commands are the operations of openapi.json (src/generated/cli.ts)
 * run through the `Oz` client, plus sign-in, profiles, whoami, oz-mock and shell completion. Ctrl+C aborts the
 * call in flight and exits 130; a second Ctrl+C exits at once.
 */
import { EXIT } from './exitCodes.js';
import { runCli } from './runCli.js';

const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
  interrupt.abort();
});

// A reader that stops early (`oz executions list --all | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.ok);
  throw error;
});

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

void runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, readStdin, signal: interrupt.signal }).then((code) => {
  // An interrupted command leaves at once; others end when their output is written.
  if (code === EXIT.interrupted) process.exit(code);
  process.exitCode = code;
});
