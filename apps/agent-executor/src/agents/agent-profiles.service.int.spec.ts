import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes } from '@app/contracts';
import { ConfigError } from '@app/config';
import { startWorld, type World } from '../testing/world';
import { readConfigProfiles } from './agent-profiles.service';

describe('agent profiles from the configuration file', () => {
  it('fills the documented defaults and reads durations', () => {
    const [ops] = readConfigProfiles([
      { name: 'ops', allowed_tools: ['http_*'], single_call_timeout: '5s', mode: 'plan' },
    ]);
    expect(ops).toMatchObject({
      name: 'ops',
      source: 'config',
      protocol: 'xml-toon',
      mode: 'plan',
      allowed_tools: ['http_*'],
      max_steps: 10,
      max_tool_calls: 20,
      single_call_timeout: 5_000,
      total_token_budget: 0,
      observation_max_len: 4_000,
      plan_approval: false,
      step_failure: 'abort',
    });
  });

  it('refuses a bad profile, naming its key and the field', () => {
    const bad = () =>
      readConfigProfiles([{ name: 'ok' }, { name: 'ops', protocol: 'smoke-signals', max_steps: 0 }]);
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/agents\[1\] \(ops\).*protocol.*max_steps/);
    expect(() => readConfigProfiles([{ name: 'ops', tools: ['x'] }])).toThrow(/agents\[0\].*tools/);
    expect(() => readConfigProfiles([{ name: 'a' }, { name: 'a' }])).toThrow(/defined twice/);
    expect(() => readConfigProfiles({ ops: {} })).toThrow(/agents: must be a list/);
  });

  it('refuses a webhook hook the network guard forbids, unless the file opens the private network', () => {
    const hooked = (hook: Record<string, unknown>) => [
      { name: 'ops', hooks: [{ event: 'after_tool', url: 'http://10.0.0.7/audit', ...hook }] },
    ];
    expect(() => readConfigProfiles(hooked({}), ['*'])).toThrow(
      /agents\[0\] \(ops\).*hooks\.0\.url.*private/,
    );
    expect(() => readConfigProfiles(hooked({}), [])).toThrow(/allowed_domains/);
    const [ops] = readConfigProfiles(hooked({ allow_private_network: true }), ['10.0.0.7']);
    expect(ops.hooks[0]).toMatchObject({
      timeout_ms: 2_000,
      policy: 'fail_open',
      allow_private_network: true,
    });
  });
});

describe('agent profiles over the bus', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({
      functions: [],
      agents: [
        {
          name: 'ops',
          allowed_tools: ['add'],
          provider: 'openai-compatible',
          base_url: 'http://127.0.0.1:9/v1',
          api_key: 'sk-ops-secret',
        },
      ],
    });
  });
  afterAll(() => world?.close());

  const get = (name: string) => world.bus.request(Routes.agentProfileGet, { name });
  const create = (body: unknown) => world.bus.request(Routes.agentProfileCreate, body as never);

  it('always has a default agent', async () => {
    expect(await get('default')).toMatchObject({
      name: 'default',
      source: 'builtin',
      allowed_tools: ['*'],
    });
  });

  it('creates a profile, shows it and lists it with the others, never showing a key', async () => {
    const created = await create({
      profile: { name: 'writer', system_prompt: 'Write.', max_steps: 3 },
      principal: 'team-a',
    });
    expect(created).toMatchObject({ name: 'writer', source: 'api', max_steps: 3, protocol: 'xml-toon' });
    expect(await get('writer')).toEqual(created);
    const list = await world.bus.request(Routes.agentProfileList);
    expect(list.map((p) => p.name)).toEqual(['default', 'ops', 'writer']);
    expect(JSON.stringify(list)).not.toMatch(/sk-ops-secret|api_key|base_url/);
  });

  it('accepts allowed_tools naming no function served now, with a warning for each (a provider may start later)', async () => {
    const created = await create({
      profile: { name: 'hopeful', allowed_tools: ['nosuchfn', 'http_*', 'function_describe'] },
    });
    expect(created).toMatchObject({
      name: 'hopeful',
      allowed_tools: ['nosuchfn', 'http_*', 'function_describe'],
    });
    expect(created.warnings).toEqual([
      expect.stringMatching(/^allowed_tools names 'nosuchfn', which no function provider serves now/),
    ]);
    // the warning belongs to the reply that made the profile, not to the stored profile
    expect((await get('hopeful')).warnings).toBeUndefined();
    const replaced = await world.bus.request(Routes.agentProfileUpdate, {
      profile: { name: 'hopeful', allowed_tools: ['nosuchfn', 'alsonot'] },
    } as never);
    expect(replaced.warnings).toHaveLength(2);
  });

  it('refuses a name that is taken, a key over REST and an unknown agent', async () => {
    await expect(create({ profile: { name: 'ops' } })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(create({ profile: { name: 'default' } })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(create({ profile: { name: 'leaky', api_key: 'sk-x' } })).rejects.toMatchObject({
      code: 'invalid_params',
      message: expect.stringContaining('api_key'),
    });
    await expect(get('nobody')).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
