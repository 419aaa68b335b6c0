import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// The lib must stay loadable by Node's own type stripping (erasable syntax, `import type`),
// which is how bench/protocol runs it. Vitest transpiles, so only a real Node process tells.
describe('libs/protocol under Node type stripping', () => {
  it('loads and parses a reply', () => {
    const script = `
      const protocol = await import('./libs/protocol/src/index.ts');
      console.log(protocol.parseAssistantReply('<call name="f"><p>a: 1</p></call>').kind);`;
    const output = execFileSync(
      process.execPath,
      ['--import', './bench/protocol/ts-resolve.mjs', '--input-type=module', '--eval', script],
      { cwd: process.cwd(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(output.trim()).toBe('calls');
  });
});
