import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentFunction, FunctionRegistry, Param } from '@app/functions';
import { Logger } from '@app/observability';
import { expectEventually } from '@app/testing';
import { SandboxPool } from '../sandbox/sandbox-pool';
import { sandboxScript } from '../sandbox/sandbox-process';
import { PluginLoaderService } from './plugin-loader.service';

const plugin = (name: string, reply: string) =>
  `export default { name: '${name}', description: 'test plugin', parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } } },
     async execute(p) { return { message: '${reply}' }; } };`;

class NoParams {
  @Param({ description: 'x' }) x?: string;
}

describe('PluginLoaderService (real files and sandboxes)', () => {
  let dir: string;
  let loader: PluginLoaderService;
  let pool: SandboxPool;
  const registry = new FunctionRegistry(5_000);
  const lines: string[] = [];
  const logger = new Logger({ service: 'test', level: 'info', format: 'text', write: (l) => lines.push(l) });
  const builtin: AgentFunction = {
    name: 'send_message',
    description: 'built in',
    params: NoParams,
    execute: async () => ({}),
  };

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'ac-plugins-')));
    writeFileSync(join(dir, 'alpha.mjs'), plugin('alpha', 'a1'));
    writeFileSync(join(dir, 'broken.js'), 'export default {');
    writeFileSync(join(dir, 'typo.mjs'), "const a = 1;\nexport default { name: 'typo', x: a +* 2 };\n");
    writeFileSync(join(dir, 'typed.ts'), 'const n: number = 1;\nconst m: number = ;\nexport default {};\n');
    writeFileSync(join(dir, 'bad_name.js'), plugin('Bad-Name', 'x'));
    writeFileSync(join(dir, 'clash.js'), plugin('send_message', 'hijacked'));
    writeFileSync(join(dir, '_helper.js'), 'export const x = 1;');
    registry.setGroup('builtin', [builtin]);
    pool = new SandboxPool({
      dir,
      script: sandboxScript(),
      memoryMb: 64,
      size: 2,
      isolation: { isolated: false, prefix: [], detail: 'test' },
      logger,
    });
    loader = new PluginLoaderService(registry, pool, async () => ({}), logger);
    await loader.onModuleInit();
  });
  afterAll(() => loader.onApplicationShutdown());

  const run = async (name: string) => {
    const entry = registry.get(name)!;
    const ctx = { signal: new AbortController().signal, deadline: Date.now() + 5_000, logger, caller: {} };
    return entry.fn.execute({}, ctx);
  };

  it('loads the good plugins, logs the bad ones, and never lets a plugin take a built-in name', async () => {
    expect(registry.names().sort()).toEqual(['alpha', 'send_message']);
    expect(registry.get('send_message')?.group).toBe('builtin');
    expect(registry.get('alpha')?.definition).toMatchObject({
      provider: 'custom',
      parameters: { properties: { n: { type: 'integer', minimum: 1 } } },
    });
    const log = lines.join('\n');
    expect(log).toMatch(
      /custom function file broken\.js not loaded: broken\.js:1:17: SyntaxError: Unexpected end of input/,
    );
    expect(log).toMatch(
      /custom function file typo\.mjs not loaded: typo\.mjs:2:38: SyntaxError: Unexpected token '\*'/,
    );
    expect(log).toMatch(/custom function file typed\.ts not loaded: typed\.ts:2:19: SyntaxError: /);
    expect(log).toMatch(
      /custom function file bad_name\.js not loaded: bad_name\.js: name must be snake_case/,
    );
    expect(log).toMatch(/custom function 'send_message' not loaded: the name belongs to a builtin function/);
    expect(log).not.toMatch(/_helper/);
  });

  it('picks up an added, a replaced and a removed plugin without a restart', async () => {
    writeFileSync(join(dir, 'beta.js'), plugin('beta', 'b1'));
    await expectEventually(() => expect(registry.names()).toContain('beta'));
    expect(await run('beta')).toEqual({ message: 'b1' });
    writeFileSync(join(dir, 'beta.js'), plugin('beta', 'b2, longer'));
    await expectEventually(async () => expect(await run('beta')).toEqual({ message: 'b2, longer' }));
    rmSync(join(dir, 'beta.js'));
    await expectEventually(() => expect(registry.names()).not.toContain('beta'));
    expect(await run('alpha')).toEqual({ message: 'a1' });
  });
});
