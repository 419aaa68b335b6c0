import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, startScriptedLlm } from '@app/testing';

const exec = promisify(execFile);
const EXAMPLE = join(REPO_ROOT, 'examples/embedded/main.mjs');

/** The built example (`npm run example:embedded` builds, then runs this). */
async function runExample(env: Record<string, string> = {}) {
  return exec(process.execPath, [EXAMPLE], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env } })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }))
    .catch((err: { code: number; stdout: string; stderr: string }) => err);
}

describe('examples/embedded', () => {
  it('holds a conversation that calls its local function, on the scripted model, and exits 0', async () => {
    const { code, stdout, stderr } = await runExample();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('(get_weather ran for Oslo)');
    expect(stdout).toMatch(/> What is the weather in Oslo\?\nIt is 4 °C and cloudy in Oslo\./);
    expect(stdout).toMatch(/> Should I take a coat\?\nYes: at 4 °C, take a coat\./);
  });

  it('exits non-zero when the model at LLM_BASE_URL never calls the function', async () => {
    const llm = await startScriptedLlm({ script: { fallback: 'No idea.' } });
    try {
      const { code, stderr } = await runExample({ LLM_BASE_URL: llm.url, LLM_MODEL: 'scripted-model' });
      expect(code).toBe(1);
      expect(stderr).toContain('the agent never called get_weather');
    } finally {
      await llm.close();
    }
  });
});
