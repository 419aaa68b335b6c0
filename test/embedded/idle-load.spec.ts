import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@app/testing';

const SDK = join(REPO_ROOT, 'dist/libs/agent/src/index.js');

// Loaded at an agent's first use of them, not by the SDK's require (docs/benchmarks.md, idle memory):
// a turn's machinery, the protocol's codecs, TOON, ajv, undici, the model SDKs, the tokenizer.
const LOADED_AT_FIRST_USE = [
  /\/agent-core\/src\/agent-turn\.js$/,
  /\/agent-core\/src\/strategies\/(react|plan|plan-step|plan-model-steps|plan-prompt)\.js$/,
  /\/protocol\/src\/(xml-toon|json-action|result)\.codec\.js$/,
  /\/node_modules\/(@toon-format\/toon|ajv|undici|openai|@anthropic-ai\/sdk|gpt-tokenizer|class-validator)\//,
];

/** The files and built-in modules a fresh process has loaded once it holds an agent (the built SDK). */
function loadedByAnIdleAgent(): { files: string[]; builtins: string[] } {
  const script = `
    const sdk = require(${JSON.stringify(SDK)});
    const add = sdk.defineFunction({
      name: 'add',
      description: 'Adds two numbers.',
      parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
      execute: async ({ a, b }) => ({ data: { sum: a + b } }),
    });
    const model = sdk.openai({ baseURL: 'http://127.0.0.1:9/v1', model: 'idle-model' });
    sdk.createAgent({ name: 'idle', model, functions: [add] }).session('ses_idle');
    console.log(JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as {
    files: string[];
    builtins: string[];
  };
}

describe('the embedded SDK holding an idle agent', () => {
  it('has not loaded what only a turn needs', () => {
    const { files, builtins } = loadedByAnIdleAgent();
    expect(files.some((file) => file.endsWith('/dist/libs/agent/src/index.js'))).toBe(true);
    expect(files.filter((file) => LOADED_AT_FIRST_USE.some((pattern) => pattern.test(file)))).toEqual([]);
    expect(builtins).not.toContain('NativeModule crypto');
  });
});
