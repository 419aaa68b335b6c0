import type { AgentMode, AgentProfileFields, AgentProtocol } from '@app/client';
import { useState } from 'preact/hooks';
import type { ViewProps } from './view-props';
import { ErrorBox, useLoad } from './ui';

const NUMBERS: [keyof AgentProfileFields, string, string][] = [
  ['temperature', 'Temperature', '0.1'],
  ['max_steps', 'Max steps', '1'],
  ['single_call_timeout', 'Per-call timeout (ms)', '1'],
  ['total_token_budget', 'Token budget', '1'],
  ['observation_max_len', 'Observation length', '1'],
];

/** An admin's form for a new agent profile (POST /api/v1/agents); empty fields keep the defaults. */
export function AgentForm({
  client,
  onCreate,
}: {
  client: ViewProps['client'];
  onCreate: (profile: AgentProfileFields) => Promise<void>;
}) {
  const functions = useLoad(() => client.functions.list(), [client]);
  const [text, setText] = useState<Record<string, string>>({ mode: 'react', protocol: 'xml-toon' });
  const [tools, setTools] = useState<string[]>([]);
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState('');
  const set = (key: string) => (e: { currentTarget: { value: string } }) =>
    setText({ ...text, [key]: e.currentTarget.value });

  async function submit() {
    setError(undefined);
    setDone('');
    const profile: AgentProfileFields = {
      name: text.name ?? '',
      mode: text.mode as AgentMode,
      protocol: text.protocol as AgentProtocol,
      ...(text.system_prompt ? { system_prompt: text.system_prompt } : {}),
      ...(text.model ? { model: text.model } : {}),
      ...(tools.length ? { allowed_tools: tools } : {}),
    };
    for (const [key] of NUMBERS) if (text[key]) Object.assign(profile, { [key]: Number(text[key]) });
    try {
      await onCreate(profile);
      setDone(`Agent ${profile.name} created.`);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <form class="stack" aria-label="Create an agent" onSubmit={(e) => (e.preventDefault(), void submit())}>
      <h3>New agent</h3>
      <label for="agent-name">Name</label>
      <input id="agent-name" required value={text.name ?? ''} onInput={set('name')} />
      <label for="agent-prompt">System prompt</label>
      <textarea id="agent-prompt" rows={3} value={text.system_prompt ?? ''} onInput={set('system_prompt')} />
      <label for="agent-model">Model</label>
      <input id="agent-model" value={text.model ?? ''} onInput={set('model')} />
      <label for="agent-protocol">Protocol</label>
      <select id="agent-protocol" value={text.protocol} onChange={set('protocol')}>
        {['xml-toon', 'json-action', 'native'].map((p) => (
          <option key={p}>{p}</option>
        ))}
      </select>
      <label for="agent-mode">Mode</label>
      <select id="agent-mode" value={text.mode} onChange={set('mode')}>
        <option>react</option>
        <option>plan</option>
      </select>
      {NUMBERS.map(([key, label, step]) => (
        <>
          <label for={`agent-${key}`}>{label}</label>
          <input
            id={`agent-${key}`}
            type="number"
            min={0}
            step={step}
            value={text[key] ?? ''}
            onInput={set(key)}
          />
        </>
      ))}
      <label for="agent-tools">Allowed tools</label>
      <select
        id="agent-tools"
        multiple
        size={6}
        onChange={(e) => setTools([...e.currentTarget.selectedOptions].map((o) => o.value))}
      >
        {functions.value?.map((f) => (
          <option key={f.name} value={f.name} selected={tools.includes(f.name)}>
            {f.name}
          </option>
        ))}
      </select>
      <ErrorBox error={functions.error} />
      <button type="submit">Create agent</button>
      {done && <p role="status">{done}</p>}
      <ErrorBox error={error} />
    </form>
  );
}
