// Runs this folder's run.mjs against a tarball packed here, for a run without the shared apps runner
// (`node test/apps/types/local.mjs`; builds first when dist/ is missing). The runner of every app folder packs once
// and sets OZ_TARBALL itself.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'oz-pack-'));
try {
  if (!existsSync(join(root, 'dist/index.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  const name = execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir], { cwd: root, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop();
  execFileSync(process.execPath, [fileURLToPath(new URL('./run.mjs', import.meta.url))], {
    stdio: 'inherit',
    env: { ...process.env, OZ_TARBALL: join(dir, name) },
  });
} catch {
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
