/**
 * Proof from another language: a Python script (urllib only) scripts a stub sequence and a streamed answer on a
 * real oz-mock process, over HTTP.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, startOzMock } from '../../control/spawnOzMock.js';

it('a Python script (standard library only) scripts a sequence and a stream on oz-mock', async () => {
  const started = await startOzMock([]);
  try {
    const script = join(ROOT, 'test/testing/pipeline/stubs/python/scripted_answers.py');
    const env = { ...process.env, OZ_BASE_URL: started.line.url, OZ_MOCK_ADMIN_TOKEN: started.line.adminToken!, OZ_API_KEY: started.line.apiKey! };
    const out = await new Promise<string>((resolve) =>
      execFile('python3', [script], { env, timeout: 60_000 }, (_err, stdout, stderr) => resolve(stdout + stderr)),
    );
    expect(out).toContain('ok - then the server answers as usual');
    expect(out).toContain('ok - the events come in order, as scripted');
    expect(out).toContain('python: all checks passed');
  } finally {
    await started.mock.stop();
  }
}, 90_000);
