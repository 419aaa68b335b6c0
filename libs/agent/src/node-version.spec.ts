import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertNodeVersion, MIN_NODE_VERSION } from './node-version';

describe('the Node.js the SDK needs', () => {
  it('is what the package declares in engines', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(manifest.engines.node).toBe(`>=${MIN_NODE_VERSION}`);
  });

  it.each(['22.19.0', '22.20.1', '24.0.0', '25.1.0'])('takes %s', (version) => {
    expect(() => assertNodeVersion(version)).not.toThrow();
  });

  it.each(['20.20.2', '22.18.9', '21.99.0'])('refuses %s in one line', (version) => {
    expect(() => assertNodeVersion(version)).toThrow(
      `@agentchassis/agent needs Node.js >= 22.19.0; this is Node.js ${version}`,
    );
  });
});
