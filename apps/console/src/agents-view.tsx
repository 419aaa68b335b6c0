import type { AgentProfileFields } from '@app/client';
import { may } from './access';
import { AgentDetail } from './agents/agent-detail';
import { AgentForm } from './agents/agent-form';
import type { ViewProps } from './view-props';
import { ErrorBox, Section, useLoad } from './ui';

/** `#/agents`: every profile (an admin may create one); `#/agents/<name>`: one in full. */
export function AgentsView({ client, scopes, arg }: ViewProps) {
  if (arg) return <AgentDetail client={client} name={arg} isAdmin={may(scopes, 'admin')} key={arg} />;
  return <AgentList client={client} isAdmin={may(scopes, 'admin')} />;
}

function AgentList({ client, isAdmin }: Pick<ViewProps, 'client'> & { isAdmin: boolean }) {
  const agents = useLoad(() => client.agents.list(), [client]);
  const create = async (profile: AgentProfileFields) => {
    await client.agents.create(profile);
    agents.reload();
  };
  return (
    <Section title="Agents">
      <ErrorBox error={agents.error} />
      <table class="cards" aria-label="Agent profiles">
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">From</th>
            <th scope="col">Mode</th>
            <th scope="col">Model</th>
            <th scope="col">Tools</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {agents.value?.map((a) => (
            <tr key={a.name}>
              <td data-label="Agent">
                <a href={`#/agents/${encodeURIComponent(a.name)}`}>{a.name}</a>
              </td>
              <td data-label="From">{a.source}</td>
              <td data-label="Mode">
                {a.mode} · {a.protocol}
              </td>
              <td data-label="Model">{a.model ?? 'platform default'}</td>
              <td data-label="Tools">{a.allowed_tools.join(', ') || '—'}</td>
              <td data-label="Description">{a.description || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {isAdmin && <AgentForm client={client} onSave={create} />}
    </Section>
  );
}
