import type { AgentChassisClient, RunView } from '@app/client';
import { useState } from 'preact/hooks';
import { formatMs, formatTime } from '../format';
import { ErrorBox, Section, useLoad } from '../ui';
import { ForkForm } from './fork-form';
import { Markdown } from './markdown';
import { StepList } from './step-list';
import { decisionText } from './timeline';
import { usageText, Waterfall } from './waterfall';

/** A run in full: its facts, its waterfall, its steps (with what each model step saw) and a fork form. */
export function RunDetail({
  client,
  id,
  canFork,
}: {
  client: AgentChassisClient;
  id: string;
  canFork: boolean;
}) {
  const run = useLoad(() => client.runs.trace(id), [client, id]);
  const [forkStep, setForkStep] = useState<number | undefined>();
  const r = run.value;
  const openFork = (step: number) => {
    setForkStep(step);
    requestAnimationFrame(() => document.getElementById('fork-step')?.focus());
  };
  return (
    <Section title={`Run ${id}`}>
      <p class="row">
        <a href="#/runs">All runs</a>
        <button type="button" class="secondary" onClick={run.reload}>
          Refresh
        </button>
      </p>
      <ErrorBox error={run.error} />
      {r && (
        <>
          <RunFacts run={r} />
          <h3>Input</h3>
          <div class="answer">{r.input}</div>
          {r.reply && (
            <>
              <h3>Reply</h3>
              <Markdown text={r.reply} label="Reply" />
            </>
          )}
          {r.error && <p class="error">{r.error}</p>}
          <h3>Timeline</h3>
          <Waterfall run={r} />
          {r.decisions && r.decisions.length > 0 && <Decisions run={r} />}
          <h3>Steps</h3>
          <StepList
            run={r}
            client={client}
            {...(canFork && r.status !== 'running' ? { forkAt: openFork } : {})}
          />
          {canFork && r.status !== 'running' && (
            <ForkForm client={client} run={r} step={forkStep ?? 1} setStep={setForkStep} />
          )}
        </>
      )}
    </Section>
  );
}

function RunFacts({ run: r }: { run: RunView }) {
  return (
    <dl class="facts">
      <dt>Agent</dt>
      <dd>
        {r.agent} ({r.mode})
      </dd>
      <dt>Status</dt>
      <dd>
        {r.status}
        {r.finish_reason ? ` · ${r.finish_reason}` : ''}
      </dd>
      <dt>Total time</dt>
      <dd>{formatMs(r.total_ms)}</dd>
      <dt>Usage</dt>
      <dd>{usageText(r.usage)}</dd>
      <dt>Used tools</dt>
      <dd>
        {Object.entries(r.used_tools)
          .map(([name, t]) => `${name} ×${t.count} (${t.total_ms} ms)`)
          .join(', ') || '—'}
      </dd>
      {r.takeovers > 0 && (
        <>
          <dt>Takeovers</dt>
          <dd>{r.takeovers}</dd>
        </>
      )}
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
      {r.forked_from && (
        <>
          <dt>Forked from</dt>
          <dd>
            <a href={`#/runs/${encodeURIComponent(r.forked_from.run_id)}`}>{r.forked_from.run_id}</a> at step{' '}
            {r.forked_from.step}
          </dd>
        </>
      )}
      {r.parent_run_id && (
        <>
          <dt>Called by</dt>
          <dd>
            <a href={`#/runs/${encodeURIComponent(r.parent_run_id)}`}>{r.parent_run_id}</a>
          </dd>
        </>
      )}
    </dl>
  );
}

/** Who decided what on the run's held calls, and when. */
function Decisions({ run }: { run: RunView }) {
  return (
    <>
      <h3>Approvals</h3>
      <ul class="decisions" aria-label="Approval decisions">
        {run.decisions!.map((d) => (
          <li key={d.call_id}>
            {decisionText(d)}{' '}
            <span class="muted">
              · asked {formatTime(d.asked_at)}, decided {formatTime(d.at)}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
