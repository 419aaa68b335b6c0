import { AgentChassisError, type ChatEvent, type ErrorBody, type PendingApproval } from '@app/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ViewProps } from './view-props';
import {
  awaitingPlanApproval,
  failTurn,
  heldCalls,
  reduceTurn,
  resumeTurn,
  startTurn,
  type Turn,
  type TurnItem,
} from './chat-state';
import { errorMessage, json } from './format';
import { HeldCalls, HeldPlan } from './held-calls';
import { ErrorBox, Pre, Section, useLoad } from './ui';

const asBody = (err: unknown): ErrorBody =>
  err instanceof AgentChassisError ? err.toBody() : { code: 'internal', message: errorMessage(err) };

export function ChatView({ client, arg }: ViewProps) {
  const agents = useLoad(() => client.agents.list(), [client]);
  // `#/chat/<session id>`: the session's conversation goes on here
  const earlier = useLoad(() => (arg ? client.sessions.get(arg) : Promise.resolve(undefined)), [client, arg]);
  const [agent, setAgent] = useState('');
  const [message, setMessage] = useState('');
  const [turns, setTurns] = useState<Turn[]>([]);
  const [error, setError] = useState<unknown>();
  const abort = useRef<AbortController | undefined>(undefined);
  // a turn whose Cancel was pressed before its run started: cancelled as soon as its run_start comes
  const cancelWhenStarted = useRef<number | undefined>(undefined);
  const running = turns.some((t) => t.running);
  const sessionId = [...turns].reverse().find((t) => t.session_id)?.session_id ?? earlier.value?.id;
  useEffect(() => {
    if (earlier.value) setAgent(earlier.value.agent);
  }, [earlier.value]);

  const update = (at: number, next: (turn: Turn) => Turn) =>
    setTurns((all) => all.map((t, i) => (i === at ? next(t) : t)));

  async function follow(at: number, events: AsyncIterable<ChatEvent>) {
    try {
      for await (const event of events) {
        update(at, (t) => reduceTurn(t, event));
        if (event.type === 'run_start' && cancelWhenStarted.current === at) {
          cancelWhenStarted.current = undefined;
          void cancelRun(event.data.run_id, at);
        }
      }
    } catch (err) {
      if (!abort.current?.signal.aborted) update(at, (t) => failTurn(t, asBody(err)));
    } finally {
      update(at, (t) => (t.running ? { ...t, running: false } : t));
    }
  }

  function send() {
    const text = message.trim();
    if (!text || running) return;
    setMessage('');
    const at = turns.length;
    cancelWhenStarted.current = undefined;
    setTurns((all) => [...all, startTurn(text)]);
    abort.current = new AbortController();
    const request = {
      message: text,
      ...(agent ? { agent } : {}),
      ...(sessionId ? { session_id: sessionId } : {}),
    };
    void follow(at, client.chatStream(request, { signal: abort.current.signal }));
  }

  function cancel(turn: Turn, at: number) {
    setError(undefined);
    // Hanging up would leave the run going: it is cancelled once its id is known.
    if (!turn.run_id) cancelWhenStarted.current = at;
    else void cancelRun(turn.run_id, at);
  }

  async function cancelRun(runId: string, at: number) {
    try {
      // the cancel answers with the run's reply (finish reason `cancelled`): it ends the turn
      const reply = await client.runs.cancel(runId);
      abort.current?.abort();
      update(at, (t) => reduceTurn(t, { type: 'run_end', data: reply }));
    } catch (err) {
      setError(err);
    }
  }

  /** Approves the held plan, or (with `call`) one held call: the run goes on, streamed. */
  function approve(turn: Turn, at: number, call?: PendingApproval) {
    update(at, resumeTurn);
    abort.current = new AbortController();
    const decision = call ? { call_id: call.call_id, hash: call.hash } : undefined;
    void follow(at, client.runs.approveStream(turn.run_id!, { signal: abort.current.signal, decision }));
  }

  /** Rejects the held plan, its reason (if given) kept on the run's record of decisions. */
  async function reject(turn: Turn, at: number, reason: string) {
    try {
      const reply = await client.runs.reject(turn.run_id!, reason ? { reason } : undefined);
      update(at, (t) => reduceTurn(t, { type: 'run_end', data: reply }));
    } catch (err) {
      setError(err);
    }
  }

  /** Rejects one held call: the run goes on, streamed, the model reading `reason` as the call's error. */
  function rejectCall(turn: Turn, at: number, call: PendingApproval, reason: string) {
    update(at, resumeTurn);
    abort.current = new AbortController();
    const decision = { call_id: call.call_id, hash: call.hash, ...(reason ? { reason } : {}) };
    void follow(at, client.runs.rejectStream(turn.run_id!, { signal: abort.current.signal, decision }));
  }

  return (
    <Section title="Chat">
      <div class="row">
        <label for="chat-agent">Agent</label>
        <select id="chat-agent" value={agent} onChange={(e) => setAgent(e.currentTarget.value)}>
          <option value="">default</option>
          {agents.value
            ?.filter((a) => a.name !== 'default') // the option above: no agent named is the default one
            .map((a) => (
              <option value={a.name} key={a.name}>
                {a.name}
              </option>
            ))}
        </select>
        {sessionId && <span class="muted">session {sessionId}</span>}
        <button
          type="button"
          onClick={() => {
            setTurns([]);
            if (arg) location.hash = '#/chat';
          }}
          disabled={running}
        >
          New session
        </button>
      </div>
      <ErrorBox error={agents.error ?? earlier.error ?? error} />
      {earlier.value && earlier.value.messages.length > 0 && (
        <ol class="turns earlier" aria-label="Earlier in this session">
          {earlier.value.messages.map((m) => (
            <li key={m.seq} class={m.role === 'user' ? 'user' : 'answer'}>
              <strong>{m.role === 'user' ? 'You:' : 'Assistant:'}</strong> {m.content}
            </li>
          ))}
        </ol>
      )}
      <ol class="turns">
        {turns.map((turn, at) => (
          <li key={at} class="turn">
            <p class="user">
              <strong>You:</strong> {turn.message}
            </p>
            {turn.items.map((item, i) => (
              <Item item={item} key={i} />
            ))}
            {turn.plan && <PlanSteps turn={turn} />}
            {turn.answer && (
              <div class="answer" aria-label="Answer">
                {turn.answer}
              </div>
            )}
            {turn.error && <ErrorBox error={new AgentChassisError({ ...turn.error, status: 0 })} />}
            <p class="meta">
              {turn.running && <span>running…</span>}
              {!turn.running && turn.finish_reason && <span>finish: {turn.finish_reason}</span>}
              {turn.usage && (
                <span>
                  tokens: {turn.usage.prompt_tokens} in, {turn.usage.completion_tokens} out
                  {turn.usage.cost_usd !== undefined && ` · ${turn.usage.cost_usd} USD`}
                </span>
              )}
              {turn.run_id && <a href={`#/runs/${encodeURIComponent(turn.run_id)}`}>trace</a>}
            </p>
            {turn.running && (
              <button type="button" onClick={() => cancel(turn, at)}>
                Cancel
              </button>
            )}
            <HeldCalls
              calls={heldCalls(turn)}
              approve={(call) => approve(turn, at, call)}
              reject={(call, reason) => void rejectCall(turn, at, call, reason)}
            />
            {awaitingPlanApproval(turn) && (
              <HeldPlan
                approve={() => approve(turn, at)}
                reject={(reason) => void reject(turn, at, reason)}
              />
            )}
          </li>
        ))}
      </ol>
      <form
        class="composer"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <label for="chat-message">Message</label>
        <textarea
          id="chat-message"
          rows={2}
          value={message}
          onInput={(e) => setMessage(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              send();
            }
          }}
        />
        <button type="submit" disabled={running}>
          Send
        </button>
      </form>
    </Section>
  );
}

function Item({ item }: { item: TurnItem }) {
  if (item.kind === 'thought') return <p class="thought">Thought: {item.text}</p>;
  if (item.kind === 'note') return <p class="note">{item.text}</p>;
  const state = item.status ?? 'running';
  return (
    <details class={`tool ${state}`}>
      <summary>
        Tool {item.name} — {state}
        {item.elapsed_ms !== undefined && ` (${item.elapsed_ms} ms)`}
      </summary>
      <p>Arguments</p>
      <Pre label={`${item.name} arguments`}>{json(item.args)}</Pre>
      <p>{item.status === 'error' ? 'Error' : 'Result'}</p>
      <Pre label={`${item.name} result`}>{json(item.status === 'error' ? item.error : item.result)}</Pre>
    </details>
  );
}

function PlanSteps({ turn }: { turn: Turn }) {
  return (
    <div class="plan">
      <p>Plan (revision {turn.plan!.revision})</p>
      <ol>
        {turn.plan!.steps.map((step) => (
          <li key={step.index}>
            {step.description} — <code>{step.tool}</code> <code>{JSON.stringify(step.params)}</code> [
            {step.status}]{step.result !== undefined && <Pre>{json(step.result)}</Pre>}
            {step.error && <span class="error">{step.error}</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}
