import type { AgentChassisClient, RunView, TraceStep } from '@app/client';
import { useState } from 'preact/hooks';
import { formatMs, formatTime, json } from '../format';
import { Pre } from '../ui';
import { PromptView } from './prompt-view';
import { ResultView } from './result-view';
import { addUsage, decisionText, hookText, type StepGroup, stepsOf } from './timeline';
import { usageText } from './waterfall';

export interface StepActions {
  client: AgentChassisClient;
  /** Opens the fork form at this step. */
  forkAt?: (step: number) => void;
}

/** The trace step by step: each model step's thought, calls and decoded results, hooks and notes. */
export function StepList({ run, ...actions }: { run: RunView } & StepActions) {
  const groups = stepsOf(run.trace);
  if (groups.length === 0) return <p class="muted">The trace is empty.</p>;
  return (
    <ol class="steps" aria-label="Steps">
      {groups.map((group) => (
        <li key={group.step}>
          <StepCard run={run} group={group} {...actions} />
        </li>
      ))}
    </ol>
  );
}

function StepCard({ run, group, client, forkAt }: { run: RunView; group: StepGroup } & StepActions) {
  const [seeing, setSeeing] = useState(false);
  const calls = group.entries.filter((e) => e.action);
  const usage = addUsage(group.entries.map((e) => e.tokens));
  const isModelStep = group.step > 0 && group.entries.some((e) => e.tokens || e.kind !== 'hook');
  const title = group.step === 0 ? 'Before the first model step' : `Step ${group.step}`;
  return (
    <details class="step" open={group.entries.length <= 4}>
      <summary>
        <strong>{title}</strong>
        <span class="muted">
          {' '}
          {kindsOf(group.entries)}
          {calls.length > 0 && ` · ${calls.length} call${calls.length > 1 ? 's' : ''}`}
          {usage.prompt_tokens + usage.completion_tokens > 0 && ` · ${usageText(usage)}`}
        </span>
      </summary>
      {group.entries.map((entry, i) => (
        <Entry entry={entry} key={i} />
      ))}
      {isModelStep && (
        <div class="row">
          <button type="button" class="secondary" aria-expanded={seeing} onClick={() => setSeeing(!seeing)}>
            {seeing ? 'Hide what the model saw' : `What the model saw at step ${group.step}`}
          </button>
          {forkAt && (
            <button type="button" class="secondary" onClick={() => forkAt(group.step)}>
              Fork from step {group.step}
            </button>
          )}
        </div>
      )}
      {seeing && <PromptView client={client} runId={run.id} step={group.step} />}
    </details>
  );
}

function kindsOf(entries: TraceStep[]): string {
  return [...new Set(entries.map((e) => e.kind.replace('_', ' ')))].join(', ');
}

function Entry({ entry }: { entry: TraceStep }) {
  const label = entry.action ? `${entry.action.tool} result, step ${entry.step}` : '';
  return (
    <div class={`entry e-${entry.kind}`}>
      {entry.thought && <p class="thought">Thought: {entry.thought}</p>}
      {entry.action && (
        <>
          <p>
            <strong>Call</strong> <code>{entry.action.tool}</code>{' '}
            <span class="muted">{formatMs(entry.elapsed_ms)}</span>
            {entry.call_id && <span class="muted"> · waits for the caller ({entry.call_id})</span>}
          </p>
          <Pre label={`${entry.action.tool} arguments, step ${entry.step}`}>{json(entry.action.args)}</Pre>
          {entry.observation !== undefined && <ResultView xml={entry.observation} label={label} />}
        </>
      )}
      {entry.kind === 'final' && (
        <p>
          <strong>Final answer</strong> <span class="muted">{formatMs(entry.elapsed_ms)}</span>
        </p>
      )}
      {entry.hook && <p class="hook">{hookText(entry)}</p>}
      {entry.kind === 'takeover' && <p class="note">Another executor took the run over here.</p>}
      {entry.kind === 'user_message' && (
        <p class="note">
          Message added: {entry.message}
          {entry.error && ` (${entry.error})`}
        </p>
      )}
      {entry.kind === 'approval' && entry.decision && (
        <p class="note">
          Approval: {decisionText(entry.decision)} · {formatTime(entry.decision.at)}
        </p>
      )}
      {entry.kind === 'routing' && entry.routing && (
        <p class="note">
          Routing ({entry.routing.routing}): {entry.routing.decision}, {entry.routing.reason}
        </p>
      )}
      {['plan', 'replan', 'summary', 'plan_step', 'history_summary'].includes(entry.kind) && (
        <p>
          <strong>{entry.kind.replace('_', ' ')}</strong>{' '}
          <span class="muted">{formatMs(entry.elapsed_ms)}</span>
        </p>
      )}
      {entry.error && <p class="error">{entry.error}</p>}
    </div>
  );
}
