import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigError, loadConfig } from '@app/config';

const withAgents = (agents: unknown) => {
  const file = join(mkdtempSync(join(tmpdir(), 'ac-a2a-config-')), 'agentchassis.yaml');
  writeFileSync(file, stringify({ a2a: { agents } }));
  return loadConfig({ AC_CONFIG: file });
};

describe('a2a.agents', () => {
  it('reads remote agents with their defaults; the bearer token becomes a header and a secret', () => {
    const config = withAgents([
      { name: 'bank', url: 'https://bank.example.com/a2a/teller', auth: { bearer: 'tok-secret-123' } },
    ]);
    expect(config.a2a.agents).toEqual([
      {
        name: 'bank',
        url: 'https://bank.example.com/a2a/teller',
        headers: { Authorization: 'Bearer tok-secret-123' },
        timeout: 30_000,
        allow_private_network: false,
      },
    ]);
    expect(config.secrets).toContain('tok-secret-123');
    expect(loadConfig({}).a2a.agents).toEqual([]);
  });

  it.each([
    ['not a list', { name: 'x' }, 'a2a.agents'],
    ['a bad name', [{ name: 'Bank!', url: 'https://x.example.com' }], 'a2a.agents[0].name'],
    ['no url', [{ name: 'bank' }], 'a2a.agents[0].url'],
    [
      'an unknown setting',
      [{ name: 'bank', url: 'https://x.example.com', token: 'x' }],
      'a2a.agents[0].token',
    ],
    [
      'a name twice',
      [
        { name: 'b', url: 'https://x.example.com' },
        { name: 'b', url: 'https://y.example.com' },
      ],
      'a2a.agents[1].name',
    ],
  ])('refuses %s, naming the key', (_what, agents, key) => {
    expect(() => withAgents(agents)).toThrow(ConfigError);
    expect(() => withAgents(agents)).toThrow(key);
  });
});
