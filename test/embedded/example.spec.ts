import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, startScriptedLlm } from '@app/testing';

const exec = promisify(execFile);
const EXAMPLE = join(REPO_ROOT, 'examples/embedded/main.mjs');

const SDK = join(REPO_ROOT, 'dist/libs/agent/src/index.js');
const SCRIPT = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/embedded/script.json'), 'utf8'));

/** The README's "Embedded SDK" example, importing the built library instead of the package. */
function readmeExample(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Embedded SDK'));
  const code = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const imported = "import { createAgent, defineFunction, openai } from '@agentchassis/agent';";
  expect(code).toContain(imported);
  expect(code.split('\n').length).toBeLessThan(30);
  const built = `import { createRequire } from 'node:module';
const { createAgent, defineFunction, openai } = createRequire(import.meta.url)(${JSON.stringify(SDK)});`;
  return code.replace(imported, built);
}

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

  it('has the README example run the same conversation', async () => {
    const llm = await startScriptedLlm({ script: SCRIPT });
    try {
      const file = join(mkdtempSync(join(tmpdir(), 'ac-readme-')), 'readme-example.mjs');
      writeFileSync(file, readmeExample());
      const { stdout } = await exec(process.execPath, [file], {
        env: { PATH: process.env.PATH ?? '', LLM_BASE_URL: llm.url, LLM_MODEL: 'scripted-model' },
      });
      expect(stdout).toContain('It is 4 °C and cloudy in Oslo.');
      expect(stdout).toContain('Yes: at 4 °C, take a coat.');
      expect(stdout).toContain("name: 'get_weather'");
    } finally {
      await llm.close();
    }
  });
});
