import { describe, expect, it } from 'vitest';
import { AgentProfileFields, AgentProfileSpec } from './agent-profile';
import { parseDto } from './validate';

const fields = (hooks: unknown[]) => () =>
  parseDto(AgentProfileFields, { name: 'a', hooks }, 'agent profile');

describe('agent profile hooks', () => {
  it('accept a function or a webhook per hook', () => {
    const profile = fields([
      { event: 'before_tool', function: 'audit_call', policy: 'fail_closed' },
      { event: 'after_llm', url: 'https://hooks.example.com/llm', timeout_ms: 500 },
    ])();
    expect(profile.hooks).toHaveLength(2);
  });

  it.each([
    [{ event: 'before_tool' }, 'exactly one target'],
    [{ event: 'before_tool', function: 'f', url: 'https://x.example.com/' }, 'exactly one target'],
    [{ event: 'on_lunch', function: 'f' }, 'hooks.0.event'],
    [{ event: 'after_tool', function: 'f', timeout_ms: 60_000 }, 'hooks.0.timeout_ms'],
    [{ event: 'after_tool', function: 'f', policy: 'maybe' }, 'hooks.0.policy'],
    [{ event: 'after_tool', url: 'ftp://x.example.com/' }, 'hooks.0.url'],
  ])('refuse %j', (hook, message) => {
    expect(fields([hook])).toThrow(message);
  });

  it('let only the configuration file open the private network to a webhook', () => {
    const hook = { event: 'after_tool', url: 'http://127.0.0.1:9/', allow_private_network: true };
    expect(fields([hook])).toThrow('allow_private_network');
    const spec = parseDto(AgentProfileSpec, { name: 'a', hooks: [hook] }, 'agent profile');
    expect(spec.hooks?.[0].allow_private_network).toBe(true);
  });
});
