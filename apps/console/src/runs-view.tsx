import type { RunView, TraceStep } from '@app/client';
import { useState } from 'preact/hooks';
import type { ViewProps } from './view-props';
import { formatTime, json } from './format';
import { ErrorBox, Section, useLoad } from './ui';

export function RunsView({ client, arg }: ViewProps) {
  return arg ? <RunTrace client={client} id={arg} /> : <RunList client={client} />;
}

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
          {['', 'running', 'completed', 'failed', 'awaiting_approval', 'cancelled'].map((s) => (
            <option value={s} key={s}>
              {s || '(any)'}
            </option>
          ))}
        </select>
      </div>
      <ErrorBox error={page.error} />
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Agent</th>
              <th scope="col">Status</th>
              <th scope="col">Input</th>
              <th scope="col">Total ms</th>
              <th scope="col">Started</th>
            </tr>
          </thead>
          <tbody>
            {page.value?.items.map((run) => (
              <tr key={run.id}>
                <td>
                  <a href={`#/runs/${encodeURIComponent(run.id)}`}>{run.id}</a>
                </td>
                <td>{run.agent}</td>
                <td>
                  {run.status}
                  {run.finish_reason ? ` · ${run.finish_reason}` : ''}
                </td>
                <td>{run.input.slice(0, 120)}</td>
                <td>{run.total_ms ?? '—'}</td>
                <td>{formatTime(run.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {page.value?.next_cursor && (
        <button type="button" onClick={() => setCursor(page.value!.next_cursor!)}>
          Older runs
        </button>
      )}
    </Section>
  );
}

function RunTrace({ client, id }: Pick<ViewProps, 'client'> & { id: string }) {
  const run = useLoad(() => client.runs.trace(id), [client, id]);
  const r = run.value;
  return (
    <Section title={`Run ${id}`}>
      <p>
        <a href="#/runs">All runs</a>
      </p>
      <ErrorBox error={run.error} />
      {r && (
        <>
          <dl class="facts">
            <dt>Agent</dt>
            <dd>
              {r.agent} ({r.mode})
            </dd>
            <dt>Status</dt>
            <dd>{r.status}</dd>
            <dt>Finish reason</dt>
            <dd>{r.finish_reason ?? '—'}</dd>
            <dt>Total time</dt>
            <dd>{r.total_ms === null ? '—' : `${r.total_ms} ms`}</dd>
            <dt>Usage</dt>
            <dd>
              {r.usage.prompt_tokens} prompt + {r.usage.completion_tokens} completion tokens
              {r.usage.cost_usd !== undefined && ` · ${r.usage.cost_usd} USD`}
            </dd>
            <dt>Used tools</dt>
            <dd>
              {Object.entries(r.used_tools)
                .map(([name, t]) => `${name} ×${t.count} (${t.total_ms} ms)`)
                .join(', ') || '—'}
            </dd>
            <dt>Run id</dt>
            <dd>
              <code>{r.id}</code>
            </dd>
            <dt>Trace id</dt>
            <dd>
              {r.trace_url ? (
                <a href={r.trace_url} rel="noreferrer" target="_blank">
                  {r.trace_id}
                </a>
              ) : (
                <code>{r.trace_id ?? '— (tracing off)'}</code>
              )}
            </dd>
            <dt>Started</dt>
            <dd>{formatTime(r.created_at)}</dd>
            {r.session_id && (
              <>
                <dt>Session</dt>
                <dd>
                  <a href={`#/sessions/${encodeURIComponent(r.session_id)}`}>{r.session_id}</a>
                </dd>
              </>
            )}
          </dl>
          <p>
            <strong>Input:</strong> {r.input}
          </p>
          {r.reply && (
            <p>
              <strong>Reply:</strong> {r.reply}
            </p>
          )}
          {r.error && <p class="error">{r.error}</p>}
          <Timeline steps={r.trace} />
        </>
      )}
    </Section>
  );
}

/** One plain row per step: a long trace renders in one pass, without a component per row. */
function Timeline({ steps }: { steps: TraceStep[] }) {
  return (
    <div class="table-wrap">
      <table class="trace" aria-label="Trace">
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Kind</th>
            <th scope="col">Thought</th>
            <th scope="col">Action</th>
            <th scope="col">Observation</th>
            <th scope="col">Error</th>
            <th scope="col">Elapsed ms</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((s, i) => (
            <tr key={i}>
              <td>{s.step}</td>
              <td>{s.kind}</td>
              <td>
                <div class="cell">{s.thought ?? ''}</div>
              </td>
              <td>
                <div class="cell">{s.action ? `${s.action.tool} ${json(s.action.args)}` : hookCell(s)}</div>
              </td>
              <td>
                <div class="cell">{s.observation ?? ''}</div>
              </td>
              <td class="error">{s.error ?? ''}</td>
              <td>{s.elapsed_ms}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A hook step: its event, where it went and how it ended. */
function hookCell(step: TraceStep): string {
  const hook = step.hook;
  return hook
    ? [hook.event, hook.target, hook.outcome, hook.decision, hook.policy].filter(Boolean).join(' ')
    : '';
}
