import { describe, expect, it } from 'vitest';
import { MEMORY_EXPAND, MEMORY_RETRIEVE } from '@app/agent-core';
import { resolveProfile } from '../agents/agent-profile';
import { memoryEnabled, memoryScopeOf, withMemoryFunctions } from './memory-scope';

const identity = { runId: 'run_1', sessionId: 'ses_1', principal: 'alice', stream: false };

describe('memory scope of a run', () => {
  it('is off unless the profile enables it, and defaults to the agent’s memories of the caller', () => {
    expect(memoryEnabled(resolveProfile({ name: 'plain' }, 'config'))).toBe(false);
    const profile = resolveProfile({ name: 'helper', memory: { enabled: true } }, 'config');
    expect(profile.memory).toEqual({ enabled: true, scope: 'agent' });
    expect(memoryScopeOf(profile, identity)).toEqual({ principal: 'alice', agent: 'helper' });
  });

  it('narrows to the session, or widens to everything of the caller, never past the caller', () => {
    const scoped = (scope: 'session' | 'principal') =>
      memoryScopeOf(resolveProfile({ name: 'helper', memory: { enabled: true, scope } }, 'config'), identity);
    expect(scoped('session')).toEqual({ principal: 'alice', sessionId: 'ses_1' });
    expect(scoped('principal')).toEqual({ principal: 'alice' });
    const anonymous = resolveProfile(
      { name: 'helper', memory: { enabled: true, scope: 'principal' } },
      'config',
    );
    expect(memoryScopeOf(anonymous, { ...identity, principal: undefined })).toEqual({ principal: '' });
  });

  it('lets the run call the memory functions whatever its allow-list', () => {
    const listed = (allowed_tools: string[]) =>
      withMemoryFunctions(
        resolveProfile({ name: 'helper', allowed_tools, memory: { enabled: true } }, 'config'),
      );
    expect(listed([])).toEqual([MEMORY_EXPAND, MEMORY_RETRIEVE]);
    expect(listed(['add'])).toEqual(['add', MEMORY_EXPAND, MEMORY_RETRIEVE]);
    expect(listed(['*'])).toEqual(['*']);
    expect(listed(['memory_*'])).toEqual(['memory_*']);
  });
});
