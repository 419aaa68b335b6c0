import type { CreatedApiKey, Scope } from '@app/client';
import { useState } from 'preact/hooks';
import type { ViewProps } from './view-props';
import { formatTime, formatUsd } from './format';
import { ErrorBox, Section, useLoad } from './ui';

const ALL_SCOPES: Scope[] = [
  'chat',
  'functions:read',
  'functions:invoke',
  'tasks:read',
  'tasks:write',
  'admin',
];

export function KeysView({ client }: ViewProps) {
  const keys = useLoad(() => client.keys.list(), [client]);
  const [name, setName] = useState('');
  const [principal, setPrincipal] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['chat']);
  const [budget, setBudget] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | undefined>();
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<unknown>();

  async function create() {
    setError(undefined);
    setCopied(false);
    try {
      setCreated(
        await client.keys.create({
          name,
          scopes,
          ...(principal ? { principal } : {}),
          ...(budget ? { daily_cost_budget_usd: Number(budget) } : {}),
        }),
      );
      setName('');
      setBudget('');
      keys.reload();
    } catch (err) {
      setError(err);
    }
  }

  async function revoke(id: string) {
    setError(undefined);
    try {
      await client.keys.revoke(id);
      keys.reload();
    } catch (err) {
      setError(err);
    }
  }

  return (
    <Section title="Keys">
      <form
        class="stack"
        aria-label="Create a key"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <label for="key-name">Name</label>
        <input id="key-name" value={name} required onInput={(e) => setName(e.currentTarget.value)} />
        <label for="key-principal">Principal (optional)</label>
        <input id="key-principal" value={principal} onInput={(e) => setPrincipal(e.currentTarget.value)} />
        <label for="key-budget">Daily budget, USD (optional; empty: the platform’s default)</label>
        <input
          id="key-budget"
          type="number"
          min={0}
          step="0.01"
          inputMode="decimal"
          value={budget}
          onInput={(e) => setBudget(e.currentTarget.value)}
        />
        <fieldset>
          <legend>Scopes</legend>
          {ALL_SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) =>
                  setScopes(e.currentTarget.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))
                }
              />{' '}
              {scope}
            </label>
          ))}
        </fieldset>
        <button type="submit">Create key</button>
      </form>
      {created && (
        <div class="key-once" role="status">
          <p>
            Key <strong>{created.name}</strong> created. It is shown this once: copy it now.
          </p>
          <code aria-label="New API key">{created.key}</code>{' '}
          <button
            type="button"
            onClick={() => {
              // the clipboard exists only on https or localhost: elsewhere, say so (the key stays shown)
              if (!navigator.clipboard)
                return setError(new Error('no clipboard here (not https): select the key and copy it'));
              navigator.clipboard.writeText(created.key).then(() => setCopied(true), setError);
            }}
          >
            Copy
          </button>
          {copied && <span> Copied.</span>}
        </div>
      )}
      <ErrorBox error={error ?? keys.error} />
      <table class="cards" aria-label="API keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Principal</th>
            <th scope="col">Prefix</th>
            <th scope="col">Scopes</th>
            <th scope="col">Daily budget</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {keys.value?.map((k) => (
            <tr key={k.id}>
              <td data-label="Name">{k.name}</td>
              <td data-label="Principal">{k.principal}</td>
              <td data-label="Prefix">
                <code>{k.prefix}</code>
              </td>
              <td data-label="Scopes">{k.scopes.join(', ')}</td>
              <td data-label="Daily budget">
                {k.daily_cost_budget_usd === null ? 'default' : formatUsd(k.daily_cost_budget_usd)}
              </td>
              <td data-label="Created">{formatTime(k.created_at)}</td>
              <td data-label="Last used">{formatTime(k.last_used_at)}</td>
              <td data-label="State">
                {k.revoked_at ? (
                  `revoked ${formatTime(k.revoked_at)}`
                ) : (
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Revoke ${k.name}`}
                    onClick={() => void revoke(k.id)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
