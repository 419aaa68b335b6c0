import { describe, expect, it } from 'vitest';
import { FUNCTION_NAME_PATTERN } from '@app/contracts';
import { functionNameOf, nameTools } from './mcp-tool-names';

const ref = (server: string, tool: string, prefix = server) => ({ server, prefix, tool });

describe('MCP tool names', () => {
  it('makes <prefix>_<tool> in snake_case, starting with a letter, at most 64 characters', () => {
    expect(functionNameOf('everything', 'get-sum')).toBe('everything_get_sum');
    expect(functionNameOf('GitHub', 'listIssues.v2')).toBe('github_listissues_v2');
    expect(functionNameOf('fs', '__weird__--name__')).toBe('fs_weird_name');
    const long = functionNameOf('server', 'x'.repeat(100));
    expect(long).toHaveLength(64);
    expect(long).toMatch(FUNCTION_NAME_PATTERN);
  });

  it('resolves collisions with numeric suffixes in (server, tool) order, whatever the input order', () => {
    const tools = [ref('b', 'echo', 'a'), ref('a', 'echo'), ref('c', 'echo', 'a'), ref('a', 'x')];
    const named = nameTools(tools, new Set());
    const reversed = nameTools([...tools].reverse(), new Set());
    expect(named.map((n) => [n.ref.server, n.name])).toEqual([
      ['a', 'a_echo'],
      ['a', 'a_x'],
      ['b', 'a_echo_2'],
      ['c', 'a_echo_3'],
    ]);
    expect(reversed.map((n) => n.name)).toEqual(named.map((n) => n.name));
    expect(named[2].collided).toBe('a_echo');
    expect(named[0].collided).toBeUndefined();
  });

  it('steps around names other functions hold and keeps suffixed long names within 64', () => {
    expect(nameTools([ref('send', 'message')], new Set(['send_message']))[0].name).toBe('send_message_2');
    const tool = 'y'.repeat(80);
    const [first, second] = nameTools([ref('s', tool), ref('t', tool, 's')], new Set());
    expect(second.name).toHaveLength(64);
    expect(second.name.endsWith('_2')).toBe(true);
    expect(second.name).not.toBe(first.name);
  });
});
