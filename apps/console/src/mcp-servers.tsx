import type { ViewProps } from './view-props';
import { ErrorBox, useLoad } from './ui';

/** The MCP servers mounted as functions, each with its state and tool count (shown only when there are any). */
export function McpServers({ client }: Pick<ViewProps, 'client'>) {
  const list = useLoad(() => client.mcpServers(), [client]);
  const servers = list.value?.servers ?? [];
  if (list.error) return <ErrorBox error={list.error} />;
  if (list.value && !list.value.answered)
    return <p class="muted">No function runner answered: MCP servers unknown.</p>;
  if (servers.length === 0) return null;
  return (
    <table class="cards" aria-label="MCP servers">
      <thead>
        <tr>
          <th scope="col">MCP server</th>
          <th scope="col">State</th>
          <th scope="col">Tools</th>
          <th scope="col">Why</th>
        </tr>
      </thead>
      <tbody>
        {servers.map((s) => (
          <tr key={s.name}>
            <td data-label="MCP server">{s.name}</td>
            <td data-label="State" class={s.state === 'ready' ? 'ok' : 'bad'}>
              {s.state}
            </td>
            <td data-label="Tools">{s.tools}</td>
            <td data-label="Why">{s.reason ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
