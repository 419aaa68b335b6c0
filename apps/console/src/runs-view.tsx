import type { RunView } from '@app/client';
import { useState } from 'preact/hooks';
import { may } from './access';
import type { ViewProps } from './view-props';
import { formatMs, formatTime } from './format';
import { RunCompare } from './runs/run-compare';
import { RunDetail } from './runs/run-detail';
import { ErrorBox, Section, useLoad } from './ui';

/** `#/runs`, `#/runs/<id>`, `#/runs/<id>/compare/<other>`. */
export function RunsView({ client, scopes, arg }: ViewProps) {
  if (!arg) return <RunList client={client} />;
  const [id, verb, other] = arg.split('/');
  if (verb === 'compare' && other) return <RunCompare client={client} a={id} b={other} key={arg} />;
  return <RunDetail client={client} id={id} canFork={may(scopes, 'chat')} key={id} />;
}

const STATUSES = ['', 'running', 'completed', 'failed', 'awaiting_approval', 'cancelled'];

function RunList({ client }: Pick<ViewProps, 'client'>) {
  const [status, setStatus] = useState('');
  const [cursor, setCursor] = useState<string | undefined>();
  const page = useLoad(
    () => client.runs.list({ limit: 50, ...(status ? { status: status as RunView['status'] } : {}), cursor }),
    [client, status, cursor],
  );
  return (
    <Section title="Runs">
      <div class="row">
        <label for="run-status">Status</label>
        <select
          id="run-status"
          value={status}
          onChange={(e) => {
            setCursor(undefined);
            setStatus(e.currentTarget.value);
          }}
        >
          {STATUSES.map((s) => (
            <option value={s} key={s}>
              {s || '(any)'}
            </option>
          ))}
        </select>
      </div>
      <ErrorBox error={page.error} />
      <table class="cards" aria-label="Runs, newest first">
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Agent</th>
            <th scope="col">Status</th>
            <th scope="col">Input</th>
            <th scope="col">Time</th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {page.value?.items.map((run) => (
            <tr key={run.id}>
              <td data-label="Run">
                <a href={`#/runs/${encodeURIComponent(run.id)}`}>{run.id}</a>
              </td>
              <td data-label="Agent">{run.agent}</td>
              <td data-label="Status">
                {run.status}
                {run.finish_reason ? ` · ${run.finish_reason}` : ''}
              </td>
              <td data-label="Input">{run.input.slice(0, 120)}</td>
              <td data-label="Time">{formatMs(run.total_ms)}</td>
              <td data-label="Started">{formatTime(run.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.value?.items.length === 0 && <p class="muted">No runs{status ? ` ${status}` : ''}.</p>}
      {page.value?.next_cursor && (
        <button type="button" onClick={() => setCursor(page.value!.next_cursor!)}>
          Older runs
        </button>
      )}
    </Section>
  );
}
