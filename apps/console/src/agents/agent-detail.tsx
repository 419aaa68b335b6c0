import type { AgentProfileFields, AgentProfileView } from '@app/client';
import { useState } from 'preact/hooks';
import type { ViewProps } from '../view-props';
import { formatCount, formatMs, formatTime, formatUsd, plural } from '../format';
import { ErrorBox, Pre, Section, useLoad } from '../ui';
import { AgentForm } from './agent-form';
import { FIELD_GROUPS } from './agent-fields';

/** One profile in full, its recent runs and what it cost this week; an admin edits or deletes one made over the API. */
export function AgentDetail({
  client,
  name,
  isAdmin,
}: Pick<ViewProps, 'client'> & { name: string; isAdmin: boolean }) {
  const agent = useLoad(() => client.agents.get(name), [client, name]);
  const runs = useLoad(() => client.runs.list({ agent: name, limit: 10 }), [client, name]);
  const usage = useLoad(() => client.usage({ window: 'week' }), [client]);
  const [editing, setEditing] = useState(false);
  const a = agent.value;
  const spent = usage.value?.by_agent.find((s) => s.key === name)?.total;
  const save = async (profile: AgentProfileFields) => {
    await client.agents.update(name, profile);
    agent.reload();
  };
  const changeable = isAdmin && a?.source === 'api';
  return (
    <Section title={`Agent ${name}`}>
      <p>
        <a href="#/agents">All agents</a>
      </p>
      <ErrorBox error={agent.error} />
      {a && (
        <>
          {a.description && <p>{a.description}</p>}
          <p class="muted">
            From{' '}
            {a.source === 'api'
              ? 'the API'
              : a.source === 'config'
                ? 'the configuration file'
                : 'the platform'}
            {!changeable && isAdmin && ' · only a profile made over the API can be edited here'}
          </p>
          {changeable && (
            <div class="row">
              <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                {editing ? 'Close the editor' : 'Edit'}
              </button>
              <DeleteAgent client={client} name={name} />
            </div>
          )}
          {editing && <AgentForm client={client} profile={a} onSave={save} key={a.name} />}
          <Profile agent={a} />
        </>
      )}
      <h3>Last 7 days {isAdmin ? '(every key’s runs)' : '(your runs)'}</h3>
      <ErrorBox error={usage.error} />
      {usage.value && (
        <p>
          {spent
            ? `${plural(spent.runs, 'run')} · ${formatCount(spent.prompt_tokens + spent.completion_tokens)} tokens · ${formatUsd(spent.cost_usd)} · ${formatMs(spent.avg_ms)} on average`
            : 'No runs in the last 7 days.'}
        </p>
      )}
      <h3>Your recent runs</h3>
      <ErrorBox error={runs.error} />
      <ul aria-label={`Recent runs of ${name}`}>
        {runs.value?.items.map((r) => (
          <li key={r.id}>
            <a href={`#/runs/${encodeURIComponent(r.id)}`}>{r.id}</a> — {r.status}
            {r.finish_reason ? ` · ${r.finish_reason}` : ''} — {formatMs(r.total_ms)} —{' '}
            {formatTime(r.created_at)}
          </li>
        ))}
        {runs.value?.items.length === 0 && <li class="muted">No runs yet.</li>}
      </ul>
    </Section>
  );
}

function Profile({ agent }: { agent: AgentProfileView }) {
  const record = agent as unknown as Record<string, unknown>;
  const shown = (key: string): string => {
    const [head, tail] = key.split('.');
    const value = tail ? (record[head] as Record<string, unknown> | undefined)?.[tail] : record[head];
    if (value === undefined || value === null || value === '')
      return key === 'model' ? 'the platform’s' : '—';
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ') || '—';
    if (typeof value === 'boolean') return value ? 'yes' : 'no';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  return (
    <dl class="facts" aria-label="Profile">
      {FIELD_GROUPS.flatMap((g) => g.fields)
        .filter((f) => f.key !== 'system_prompt' && f.key !== 'name')
        .map((f) => (
          <>
            <dt key={`${f.key}-t`}>{f.label.replace(' (JSON)', '')}</dt>
            <dd key={`${f.key}-d`}>{shown(f.key)}</dd>
          </>
        ))}
      <dt>System prompt</dt>
      <dd>
        <Pre label="System prompt">{agent.system_prompt || '—'}</Pre>
      </dd>
    </dl>
  );
}

function DeleteAgent({ client, name }: Pick<ViewProps, 'client'> & { name: string }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>();
  const remove = async () => {
    try {
      await client.agents.delete(name);
      location.hash = '#/agents';
    } catch (err) {
      setError(err);
    }
  };
  if (!asking)
    return (
      <button type="button" class="secondary" onClick={() => setAsking(true)}>
        Delete
      </button>
    );
  return (
    <div class="confirm" role="group" aria-label="Confirm deleting the agent">
      <span>Delete the agent {name}? Its runs and sessions stay. </span>
      <button type="button" class="danger" onClick={() => void remove()}>
        Delete {name}
      </button>{' '}
      <button type="button" class="secondary" onClick={() => setAsking(false)} autoFocus>
        Keep it
      </button>
      <ErrorBox error={error} />
    </div>
  );
}
