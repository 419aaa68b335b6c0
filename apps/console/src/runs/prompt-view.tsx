import type { AgentChassisClient, PromptMessage, PromptPart, StepMessagesView } from '@app/client';
import { formatCount, formatMs } from '../format';
import { ErrorBox, Pre, useLoad } from '../ui';

const PART_LABEL: Record<PromptPart | 'tools', string> = {
  system: 'System prompt',
  summary: 'Summary of earlier turns',
  history: 'Earlier turn',
  input: 'The message',
  assistant: 'The model’s earlier reply',
  result: 'Function result',
  message: 'Message added mid-run',
  repair: 'Repair prompt',
  tools: 'Function definitions (native)',
};

/**
 * What one model step sent, as the provider received it, and what came back: every message with
 * its part and tokens, the system prompt's split into instructions, functions and guide, and the
 * tokens by part, so what the protocol costs is there to see.
 */
export function PromptView({
  client,
  runId,
  step,
}: {
  client: AgentChassisClient;
  runId: string;
  step: number;
}) {
  const view = useLoad(() => client.runs.stepMessages(runId, step), [client, runId, step]);
  const v = view.value;
  return (
    <section class="prompt" aria-label={`What the model saw at step ${step}`}>
      <h4>What the model saw at step {step}</h4>
      {view.loading && !v && <p class="muted">Loading…</p>}
      <ErrorBox error={view.error} />
      {v && <PromptBody view={v} />}
    </section>
  );
}

function PromptBody({ view }: { view: StepMessagesView }) {
  const total = Object.values(view.tokens_by_part).reduce((sum, n) => sum + (n ?? 0), 0);
  return (
    <>
      <p class="muted">
        {view.model ?? 'default model'} · {view.protocol} · {view.messages.length} messages ·{' '}
        {formatCount(total)} tokens counted
        {view.redacted && ' · secrets masked'}
      </p>
      <TokenSplit parts={view.tokens_by_part} total={total} />
      <ol class="messages" aria-label="Messages sent">
        {view.messages.map((m, i) => (
          <li key={i} class={`msg m-${m.role}`}>
            <MessageCard message={m} index={i} />
          </li>
        ))}
      </ol>
      {view.tools && (
        <details>
          <summary>
            Function definitions sent beside the messages · {formatCount(view.tools_tokens)} tokens
          </summary>
          <Pre label="Function definitions">{JSON.stringify(view.tools, null, 2)}</Pre>
        </details>
      )}
      <h5>The reply, as returned</h5>
      <p class="muted">
        {formatCount(view.reply.prompt_tokens)} prompt
        {view.reply.cached_prompt_tokens
          ? ` (${formatCount(view.reply.cached_prompt_tokens)} cached)`
          : ''} + {formatCount(view.reply.completion_tokens)} completion tokens, as the provider counted ·{' '}
        {formatMs(view.reply.elapsed_ms)}
      </p>
      <Pre label="Raw reply">{view.reply.text || '(no text)'}</Pre>
      {view.reply.tool_calls.length > 0 && (
        <Pre label="Native tool calls">{JSON.stringify(view.reply.tool_calls, null, 2)}</Pre>
      )}
    </>
  );
}

function MessageCard({ message, index }: { message: PromptMessage; index: number }) {
  const label = `${index + 1}. ${PART_LABEL[message.part]} (${message.role})`;
  return (
    <>
      <p class="msg-head">
        <strong>{label}</strong> <span class="muted">{formatCount(message.tokens)} tokens</span>
        {message.tool_call_id && <span class="muted"> · answers {message.tool_call_id}</span>}
      </p>
      {message.sections && (
        <p class="muted">
          {message.sections.map((s) => `${s.name}: ${formatCount(s.tokens)}`).join(' · ')} tokens
        </p>
      )}
      <Pre label={label}>{message.content}</Pre>
      {message.tool_calls && message.tool_calls.length > 0 && (
        <Pre label={`${label} tool calls`}>{JSON.stringify(message.tool_calls, null, 2)}</Pre>
      )}
    </>
  );
}

/** A bar split by part, with the numbers beside it. */
function TokenSplit({ parts, total }: { parts: StepMessagesView['tokens_by_part']; total: number }) {
  const entries = Object.entries(parts).filter(([, n]) => (n ?? 0) > 0) as [PromptPart | 'tools', number][];
  if (total === 0) return null;
  return (
    <div class="token-split">
      <span class="split-bar" aria-hidden="true">
        {entries.map(([part, n]) => (
          <span class={`part p-${part}`} key={part} style={{ width: `${(n / total) * 100}%` }} />
        ))}
      </span>
      <ul class="legend" aria-label="Tokens by part">
        {entries.map(([part, n]) => (
          <li key={part}>
            <span class={`swatch p-${part}`} aria-hidden="true" /> {PART_LABEL[part]}: {formatCount(n)} (
            {Math.round((n / total) * 100)}%)
          </li>
        ))}
      </ul>
    </div>
  );
}
