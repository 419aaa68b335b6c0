import type { AgentChassisClient, RunView } from '@app/client';
import { formatCount, formatMs, formatUsd } from '../format';
import { ErrorBox, Section, useLoad } from '../ui';
import { Markdown } from './markdown';
import { cachedOf, stepsOf } from './timeline';

/** Two runs side by side (a run and its fork): answers, steps, tokens, cost and time. */
export function RunCompare({ client, a, b }: { client: AgentChassisClient; a: string; b: string }) {
  const left = useLoad(() => client.runs.trace(a), [client, a]);
  const right = useLoad(() => client.runs.trace(b), [client, b]);
  return (
    <Section title="Two runs side by side">
      <p>
        <a href={`#/runs/${encodeURIComponent(a)}`}>Back to {a}</a>
      </p>
      <ErrorBox error={left.error ?? right.error} />
      <div class="side-by-side">
        {left.value && <RunColumn run={left.value} title="Original" />}
        {right.value && <RunColumn run={right.value} title={right.value.forked_from ? 'Fork' : 'Other'} />}
      </div>
    </Section>
  );
}

function RunColumn({ run, title }: { run: RunView; title: string }) {
  const steps = stepsOf(run.trace).filter((g) => g.step > 0);
  return (
    <article aria-label={`${title}: ${run.id}`} class="column">
      <h3>
        {title}: <a href={`#/runs/${encodeURIComponent(run.id)}`}>{run.id}</a>
      </h3>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          {run.status}
          {run.finish_reason ? ` · ${run.finish_reason}` : ''}
        </dd>
        <dt>Agent</dt>
        <dd>{run.agent}</dd>
        <dt>Steps</dt>
        <dd>{steps.length}</dd>
        <dt>Prompt tokens</dt>
        <dd>
          {formatCount(run.usage.prompt_tokens)}
          {cachedOf(run.usage) ? ` (${formatCount(cachedOf(run.usage))} cached)` : ''}
        </dd>
        <dt>Completion tokens</dt>
        <dd>{formatCount(run.usage.completion_tokens)}</dd>
        <dt>Cost</dt>
        <dd>{formatUsd(run.usage.cost_usd)}</dd>
        <dt>Time</dt>
        <dd>{formatMs(run.total_ms)}</dd>
        {run.forked_from && (
          <>
            <dt>Forked at</dt>
            <dd>step {run.forked_from.step}</dd>
          </>
        )}
      </dl>
      <h4>Message</h4>
      <div class="answer">{run.input}</div>
      <h4>Answer</h4>
      {run.reply ? <Markdown text={run.reply} label={`${title} answer`} /> : <p class="muted">No answer.</p>}
      <h4>Steps</h4>
      <ol class="compact">
        {steps.map((g) => (
          <li key={g.step}>
            Step {g.step}:{' '}
            {g.entries
              .map((e) =>
                e.action ? `${e.action.tool}${e.error ? ' (error)' : ''}` : e.kind.replace('_', ' '),
              )
              .join(', ')}
          </li>
        ))}
      </ol>
    </article>
  );
}
