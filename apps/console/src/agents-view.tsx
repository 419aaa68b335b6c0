import type { AgentProfileFields, AgentProfileView } from '@app/client';
import { may } from './access';
import type { ViewProps } from './view-props';
import { AgentForm } from './agent-form';
import { ErrorBox, Section, useLoad } from './ui';

const SHOWN: [keyof AgentProfileView, string][] = [
  ['mode', 'Mode'],
  ['protocol', 'Protocol'],
  ['model', 'Model'],
  ['temperature', 'Temperature'],
  ['max_steps', 'Max steps'],
  ['single_call_timeout', 'Per-call timeout (ms)'],
  ['total_token_budget', 'Token budget'],
  ['observation_max_len', 'Observation length'],
  ['plan_approval', 'Plan approval'],
];

export function AgentsView({ client, scopes }: ViewProps) {
  const agents = useLoad(() => client.agents.list(), [client]);
  const isAdmin = may(scopes, 'admin');
  const create = async (profile: AgentProfileFields) => {
    await client.agents.create(profile);
    agents.reload();
  };
  return (
    <Section title="Agents">
      <ErrorBox error={agents.error} />
      {agents.value?.map((a) => (
        <details key={a.name} class="tool">
          <summary>
            <strong>{a.name}</strong> <span class="muted">({a.source})</span> {a.description}
          </summary>
          <dl class="facts">
            {SHOWN.map(([field, label]) => (
              <>
                <dt>{label}</dt>
                <dd>{a[field] === undefined || a[field] === null ? '—' : String(a[field])}</dd>
              </>
            ))}
            <dt>Allowed tools</dt>
            <dd>{a.allowed_tools.join(', ') || '—'}</dd>
          </dl>
          <p>System prompt</p>
          <pre class="scroll">{a.system_prompt}</pre>
        </details>
      ))}
      {isAdmin && <AgentForm client={client} onCreate={create} />}
    </Section>
  );
}
