import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigError, loadConfig } from '@app/config';

const withServers = (servers: unknown, env: Record<string, string> = {}) => {
  const file = join(mkdtempSync(join(tmpdir(), 'ac-mcp-config-')), 'agentchassis.yaml');
  writeFileSync(file, stringify({ mcp: { servers } }));
  return loadConfig({ AC_CONFIG: file, ...env });
};

const failure = (servers: unknown, env: Record<string, string> = {}): ConfigError => {
  try {
    withServers(servers, env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('the configuration was accepted');
};

describe('mcp.servers', () => {
  it('reads stdio and http servers with their defaults; header and env values become secrets', () => {
    const config = withServers(
      [
        {
          name: 'fs',
          transport: 'stdio',
          command: 'npx',
          args: ['-y', 'server', 1],
          env: { TOKEN: '${FS_TOKEN}' },
        },
        {
          name: 'docs',
          transport: 'http',
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer ${DOCS_KEY}' },
          timeout: '5s',
          prefix: 'kb',
          tools: { include: ['search'], exclude: ['drop'] },
          idempotent: ['search'],
        },
      ],
      { FS_TOKEN: 'fs-token-123', DOCS_KEY: 'docs-key-456', PATH: '/usr/bin' },
    );
    expect(config.mcp.serve).toBe(true);
    expect(config.mcp.servers).toEqual([
      {
        name: 'fs',
        prefix: 'fs',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', 'server', '1'],
        env: { PATH: '/usr/bin', TOKEN: 'fs-token-123' },
        cwd: undefined,
        network: true,
        timeout: 30_000,
        tools: { include: undefined, exclude: [] },
        idempotent: false,
      },
      {
        name: 'docs',
        prefix: 'kb',
        transport: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer docs-key-456' },
        allow_private_network: false,
        timeout: 5_000,
        tools: { include: ['search'], exclude: ['drop'] },
        idempotent: ['search'],
      },
    ]);
    expect(config.secrets).toEqual(
      expect.arrayContaining(['fs-token-123', 'Bearer docs-key-456', 'docs-key-456']),
    );
    expect(config.secrets).not.toContain('/usr/bin');
    expect(config.sections).not.toHaveProperty('mcp');
  });

  it('has no servers when none are configured', () => {
    expect(loadConfig({}).mcp).toEqual({ serve: true, servers: [], authorization_servers: [] });
  });

  it.each([
    ['not a list', { name: 'x' }, 'mcp.servers: must be a list'],
    ['a bad name', [{ name: '1x', transport: 'stdio', command: 'a' }], 'mcp.servers[0].name'],
    [
      'an unknown transport',
      [{ name: 'x', transport: 'sse', url: 'http://a' }],
      "must be stdio or http, got 'sse'",
    ],
    ['no command', [{ name: 'x', transport: 'stdio' }], 'mcp.servers[0].command: is required'],
    ['no url', [{ name: 'x', transport: 'http' }], 'mcp.servers[0].url: is required'],
    ['a non-http url', [{ name: 'x', transport: 'http', url: 'ftp://a/b' }], 'mcp.servers[0].url'],
    [
      'a setting of the other transport',
      [{ name: 'x', transport: 'stdio', command: 'a', url: 'http://a' }],
      'mcp.servers[0].url: is not a setting of a stdio server',
    ],
    [
      'a bad timeout',
      [{ name: 'x', transport: 'stdio', command: 'a', timeout: 'soon' }],
      'mcp.servers[0].timeout',
    ],
    [
      'a bad tool filter',
      [{ name: 'x', transport: 'stdio', command: 'a', tools: { only: [] } }],
      'mcp.servers[0].tools.only',
    ],
    [
      'an idempotent setting that is neither a flag nor a list',
      [{ name: 'x', transport: 'stdio', command: 'a', idempotent: 'yes' }],
      'mcp.servers[0].idempotent: must be true, false or a list of tool names',
    ],
    [
      'a network flag that is not a boolean',
      [{ name: 'x', transport: 'stdio', command: 'a', network: 'no' }],
      'mcp.servers[0].network: must be true or false',
    ],
    [
      'a name used twice',
      [
        { name: 'x', transport: 'stdio', command: 'a' },
        { name: 'x', transport: 'stdio', command: 'b' },
      ],
      "mcp.servers[1].name: 'x' is used twice",
    ],
  ])('refuses %s, naming the key', (_, servers, message) => {
    expect(failure(servers).message).toContain(message);
  });

  it('never shows a header value in an error', () => {
    const error = failure([
      { name: 'x', transport: 'http', url: 'https://a/mcp', headers: { Authorization: ['hunter2-secret'] } },
    ]);
    expect(error.message).toContain('mcp.servers[0].headers.Authorization: must be a string');
    expect(error.message).not.toContain('hunter2');
  });
});
