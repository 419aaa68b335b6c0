import { describe, expect, it } from 'vitest';
import type { McpConnection } from './mcp-connection';
import { MAX_DESCRIPTION_CHARS, McpFunctionBuilder } from './mcp-functions';

const connection = (name: string, prefix = name, idempotent: boolean | string[] = false) =>
  ({ server: { name, prefix, timeout: 5_000, idempotent } }) as unknown as McpConnection;
const tool = (name: string, properties: Record<string, object> = {}, description = `does ${name}`) => ({
  name,
  description,
  inputSchema: { type: 'object' as const, properties },
});

describe('McpFunctionBuilder', () => {
  it('reuses the function of an unchanged tool, so a reconnect changes nothing in the registry', () => {
    const builder = new McpFunctionBuilder();
    const server = connection('kb');
    const first = builder.build([{ connection: server, tools: [tool('search'), tool('fetch')] }], new Set());
    const again = builder.build([{ connection: server, tools: [tool('fetch'), tool('search')] }], new Set());
    expect(again.functions.map((f) => f.name).sort()).toEqual(['kb_fetch', 'kb_search']);
    for (const fn of again.functions) expect(first.functions).toContain(fn);
    const changed = builder.build(
      [{ connection: server, tools: [tool('search', { q: { type: 'string' } })] }],
      new Set(),
    );
    expect(changed.functions[0]).not.toBe(first.functions.find((f) => f.name === 'kb_search'));
    expect(changed.functions[0]).toMatchObject({ name: 'kb_search', timeoutMs: 5_000 });
  });

  it('declares as safe to send again only the tools the server configuration names', () => {
    const builder = new McpFunctionBuilder();
    const idempotentOf = (server: McpConnection) =>
      Object.fromEntries(
        builder
          .build([{ connection: server, tools: [tool('search'), tool('write')] }], new Set())
          .functions.map((f) => [f.name, f.idempotent]),
      );
    expect(idempotentOf(connection('kb'))).toEqual({ kb_search: false, kb_write: false });
    expect(idempotentOf(connection('kb', 'kb', ['search']))).toEqual({ kb_search: true, kb_write: false });
    expect(idempotentOf(connection('kb', 'kb', true))).toEqual({ kb_search: true, kb_write: true });
  });

  it('renames around taken names and reports tools it cannot serve, without dropping the others', () => {
    const plan = new McpFunctionBuilder().build(
      [
        {
          connection: connection('send'),
          tools: [tool('message'), tool('odd', { v: { anyOf: [{ type: 'string' }, { type: 'number' }] } })],
        },
      ],
      new Set(['send_message']),
    );
    expect(plan.functions.map((f) => f.name)).toEqual(['send_message_2']);
    expect(plan.renamed).toEqual(['send_message_2 (send/message): the name send_message was already taken']);
    expect(plan.refused).toEqual(["send/odd: parameter 'v' has no single JSON type the platform can check"]);
  });

  it('cuts a very long description', () => {
    const plan = new McpFunctionBuilder().build(
      [{ connection: connection('kb'), tools: [tool('search', {}, 'x'.repeat(5_000))] }],
      new Set(),
    );
    expect(plan.functions[0].description).toHaveLength(MAX_DESCRIPTION_CHARS);
  });
});
