/** `oz-mock record`'s usage errors: exit 2 with a message, before anything listens or is written. */
import { describe, expect, it } from 'vitest';
import { recordCommand, type CommandIo } from '../../../src/testing/recording/recordCommand.js';

async function run(args: string[]): Promise<{ code: number | undefined; err: string }> {
  let code: number | undefined;
  let err = '';
  const io: CommandIo = { out: () => {}, err: (t) => void (err += t), exit: (c) => void (code = c), onStop: () => {} };
  await recordCommand(args, io);
  return { code, err };
}

describe('oz-mock record', () => {
  it.each([
    [[], '--target URL is required'],
    [['--target', 'nowhere'], '--target must be an http or https URL, got nowhere'],
    [['--target', 'ftp://x.test'], '--target must be an http or https URL'],
    [['--target', 'http://x.test', '--port', '70000'], '--port must be a port number from 0 to 65535'],
    [['--target', 'http://x.test', '--nope'], "Unknown option '--nope'"],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const { code, err } = await run(args);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });
});
