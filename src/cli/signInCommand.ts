import { signIn } from '../index.js';
import { valueOf } from './cliOptions.js';
import type { WrittenFlag } from './argv.js';
import { CliUsageError } from './cliUsageError.js';
import { unknownFlag } from './cliOptions.js';
import type { CliIO } from './operationCommand.js';
import { storeProfile } from './profileCommands.js';
import { SIGN_IN_FLAGS } from './globalFlags.js';
import { writeOwn } from './terminalText.js';

/**
 * `oz sign-in`: the specification's flow through `signIn()` (the URL on stderr, the browser with --open), then the
 * key stored under a profile (atomically, mode 0600). The key is never printed.
 */
export async function runSignIn(flags: readonly WrittenFlag[], io: CliIO): Promise<void> {
  const values = new Map<string, string>();
  for (const flag of flags) {
    if (!SIGN_IN_FLAGS.some((f) => f.name === flag.name))
      throw unknownFlag(
        flag,
        SIGN_IN_FLAGS.map((f) => f.name),
      );
    values.set(flag.name, flag.name === 'open' ? String(flag.value) : valueOf(flag));
  }
  const set = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);
  const dashboardURL = values.get('dashboard-url') ?? set(io.env.OZ_DASHBOARD_URL);
  if (dashboardURL === undefined) throw new CliUsageError('No dashboard URL: pass --dashboard-url or set OZ_DASHBOARD_URL.');
  const result = await signIn({
    dashboardURL,
    openBrowser: values.get('open') === 'true',
    signal: io.signal,
    onAuthorizeURL: (url) => void io.stderr.write(`Open this URL to sign in:\n  ${url}\nWaiting for the dashboard...\n`),
  });
  const { name, path } = await storeProfile(io, values.get('profile'), {
    api_key: result.key,
    base_url: values.get('base-url') ?? set(io.env.OZ_BASE_URL),
    dashboard_url: dashboardURL,
    key_name: result.name,
    tier: result.tier,
    expires_at: result.expires_at,
    created_at: new Date().toISOString(),
  });
  writeOwn(
    io.stdout,
    `Signed in: key ${JSON.stringify(result.name)} (tier ${result.tier}, expires ${result.expires_at ?? 'never'}) stored as profile ${JSON.stringify(name)} in ${path}.\n`,
  );
}
