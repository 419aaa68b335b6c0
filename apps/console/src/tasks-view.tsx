import { may } from './access';
import type { ViewProps } from './view-props';
import { formatTime, json } from './format';
import { CronForm, DelayForm } from './task-forms';
import { ErrorBox, Section, useLoad } from './ui';
import { useState } from 'preact/hooks';

export function TasksView({ client, scopes }: ViewProps) {
  const delays = useLoad(() => client.delays.list(), [client]);
  const crons = useLoad(() => client.crons.list(), [client]);
  const [error, setError] = useState<unknown>();
  const canWrite = may(scopes, 'tasks:write');
  const act = async (action: () => Promise<unknown>) => {
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(err);
    }
    delays.reload();
    crons.reload();
  };
  return (
    <Section title="Tasks">
      <div class="row">
        <button
          type="button"
          onClick={() => {
            delays.reload();
            crons.reload();
          }}
        >
          Refresh
        </button>
      </div>
      <ErrorBox error={error ?? delays.error ?? crons.error} />
      <h3>Delays</h3>
      <table class="cards" aria-label="Delays">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Does</th>
            <th scope="col">Run at</th>
            <th scope="col">Status</th>
            <th scope="col">Ran at</th>
            <th scope="col">Result or error</th>
            {canWrite && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {delays.value?.map((d) => (
            <tr key={d.name}>
              <td data-label="Name">{d.name}</td>
              <td data-label="Does">
                {d.target === 'function'
                  ? `${d.function ?? ''} ${json(d.params)}`
                  : `${d.agent ?? 'agent'}: ${d.message ?? ''}`}
              </td>
              <td data-label="Run at">{formatTime(d.run_at)}</td>
              <td data-label="Status">{d.status}</td>
              <td data-label="Ran at">{formatTime(d.executed_at)}</td>
              <td data-label="Result or error">
                <div class="cell">
                  {d.error ?? (d.result === null || d.result === undefined ? '' : json(d.result))}
                </div>
              </td>
              {canWrite && (
                <td data-label="Actions">
                  {d.status === 'pending' && (
                    <button
                      type="button"
                      aria-label={`Cancel ${d.name}`}
                      onClick={() => void act(() => client.delays.cancel(d.name))}
                    >
                      Cancel
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {delays.value?.length === 0 && <p class="muted">No delays.</p>}
      <h3>Crons</h3>
      <table class="cards" aria-label="Crons">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Schedule</th>
            <th scope="col">Does</th>
            <th scope="col">Next run</th>
            <th scope="col">Last run</th>
            <th scope="col">Runs</th>
            {canWrite && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {crons.value?.map((c) => (
            <tr key={c.name}>
              <td data-label="Name">{c.name}</td>
              <td data-label="Schedule">
                <code>{c.cron_expr}</code> ({c.timezone}){c.enabled ? '' : ' · disabled'}
              </td>
              <td data-label="Does">
                {c.target === 'function'
                  ? `${c.function ?? ''} ${json(c.params)}`
                  : `${c.agent ?? 'agent'}: ${c.message ?? ''}`}
              </td>
              <td data-label="Next run">{formatTime(c.next_run_at)}</td>
              <td data-label="Last run">
                {formatTime(c.last_run_at)}
                {c.last_status ? ` · ${c.last_status}` : ''}
              </td>
              <td data-label="Runs">
                {c.run_count}
                {c.max_runs ? ` / ${c.max_runs}` : ''}
              </td>
              {canWrite && (
                <td data-label="Actions">
                  <button
                    type="button"
                    aria-label={`Delete ${c.name}`}
                    onClick={() => void act(() => client.crons.delete(c.name))}
                  >
                    Delete
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {crons.value?.length === 0 && <p class="muted">No crons.</p>}
      {canWrite && (
        <div class="split">
          <DelayForm client={client} onCreated={() => void act(async () => undefined)} />
          <CronForm client={client} onCreated={() => void act(async () => undefined)} />
        </div>
      )}
    </Section>
  );
}
