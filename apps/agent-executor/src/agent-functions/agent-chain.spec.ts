import { describe, expect, it } from 'vitest';
import { agentFunctionName, chainFor } from './agent-chain';

describe('the chain of agents a call comes through', () => {
  it('is the caller chain, or the calling agent alone, or nothing for an API client', () => {
    expect(chainFor({ kind: 'agent', agent: 'a', chain: ['a'] }, 'b', 3)).toEqual(['a']);
    expect(chainFor({ kind: 'agent', agent: 'a' }, 'b', 3)).toEqual(['a']);
    expect(chainFor({ kind: 'api', principal: 'k' }, 'b', 3)).toEqual([]);
  });

  it('refuses an agent already in the chain, naming the cycle', () => {
    expect(() => chainFor({ kind: 'agent', agent: 'b', chain: ['a', 'b'] }, 'a', 3)).toThrow(
      /already in the chain of calls \(a → b → a\)/,
    );
  });

  it('allows the limit and refuses one call deeper', () => {
    expect(chainFor({ kind: 'agent', chain: ['a', 'b', 'c'] }, 'd', 3)).toEqual(['a', 'b', 'c']);
    expect(() => chainFor({ kind: 'agent', chain: ['a', 'b', 'c', 'd'] }, 'e', 3)).toThrow(
      /4 deep; the limit is 3/,
    );
  });

  it('names functions for agents a function name can spell', () => {
    expect(agentFunctionName('researcher')).toBe('agent_researcher');
    expect(agentFunctionName('Web-Helper')).toBeUndefined();
  });
});
