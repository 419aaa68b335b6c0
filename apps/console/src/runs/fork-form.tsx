import type { AgentChassisClient, ForkRunBody, RunView, TraceStep } from '@app/client';
import { useState } from 'preact/hooks';
import { ErrorBox, useLoad } from '../ui';

export const compareHref = (a: string, b: string) =>
  `#/runs/${encodeURIComponent(a)}/compare/${encodeURIComponent(b)}`;

/**
 * Runs the run again from a step: the steps before it come from the journal, and from it on the
 * message, agent, model or the previous step's results are what the form says. The new run and
 * this one are then shown side by side.
 */
export function ForkForm({
  client,
  run,
  step,
  setStep,
}: {
  client: AgentChassisClient;
  run: RunView;
  step: number;
  setStep: (step: number) => void;
}) {
  const agents = useLoad(() => client.agents.list(), [client]);
  const [message, setMessage] = useState('');
  const [agent, setAgent] = useState('');
  const [model, setModel] = useState('');
  const [session, setSession] = useState<'new' | 'same'>('new');
  const [results, setResults] = useState<Record<number, { text: string; error: boolean }>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const lastStep = Math.max(1, ...run.trace.map((e) => e.step));
  const previousCalls = run.trace.filter((e) => e.step === step - 1 && e.action);

  async function submit() {
    setError(undefined);
    setBusy(true);
    try {
      const reply = await client.runs.fork(run.id, bodyOf());
      location.hash = compareHref(run.id, reply.run_id);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  function bodyOf(): ForkRunBody {
    const edited = Object.entries(results).filter(([, r]) => r.text.trim() !== '');
    return {
      from_step: step,
      ...(message.trim() ? { message: message.trim() } : {}),
      ...(agent ? { agent } : {}),
      ...(model.trim() ? { model: model.trim() } : {}),
      ...(session === 'same' ? { session } : {}),
      ...(edited.length
        ? {
            tool_results: edited.map(([index, r]) => ({
              index: Number(index),
              result: r.error ? r.text : parsed(r.text),
              ...(r.error ? { status: 'error' as const } : {}),
            })),
          }
        : {}),
    };
  }

  return (
    <form
      class="stack wide"
      aria-label="Fork this run"
      id="fork"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>Fork from a step</h3>
      <p class="muted">
        Steps before the one chosen are taken from this run’s journal (no model or function is asked again);
        from it on the new run goes live with what you change here.
      </p>
      <label for="fork-step">From step</label>
      <input
        id="fork-step"
        type="number"
        min={1}
        max={lastStep}
        required
        value={step}
        onInput={(e) => setStep(Number(e.currentTarget.value) || 1)}
      />
      <label for="fork-message">
        {step === 1 ? 'Message (replaces the run’s)' : 'Message added before this step'}
      </label>
      <textarea
        id="fork-message"
        rows={3}
        value={message}
        onInput={(e) => setMessage(e.currentTarget.value)}
      />
      {previousCalls.map((call, index) => (
        <ResultEdit
          key={index}
          call={call}
          index={index}
          value={results[index] ?? { text: '', error: false }}
          onChange={(value) => setResults({ ...results, [index]: value })}
        />
      ))}
      <label for="fork-agent">Agent</label>
      <select id="fork-agent" value={agent} onChange={(e) => setAgent(e.currentTarget.value)}>
        <option value="">{`the run’s (${run.agent})`}</option>
        {agents.value?.map((a) => (
          <option value={a.name} key={a.name}>
            {a.name}
          </option>
        ))}
      </select>
      <label for="fork-model">Model (empty: the agent’s)</label>
      <input id="fork-model" value={model} onInput={(e) => setModel(e.currentTarget.value)} />
      <fieldset>
        <legend>Session</legend>
        <label class="check">
          <input
            type="radio"
            name="fork-session"
            checked={session === 'new'}
            onChange={() => setSession('new')}
          />{' '}
          a new one
        </label>
        <label class="check">
          <input
            type="radio"
            name="fork-session"
            checked={session === 'same'}
            onChange={() => setSession('same')}
          />{' '}
          this run’s
        </label>
      </fieldset>
      <button type="submit" disabled={busy}>
        {busy ? 'Running the fork…' : 'Fork and run'}
      </button>
      <ErrorBox error={error ?? agents.error} />
    </form>
  );
}

function ResultEdit({
  call,
  index,
  value,
  onChange,
}: {
  call: TraceStep;
  index: number;
  value: { text: string; error: boolean };
  onChange: (value: { text: string; error: boolean }) => void;
}) {
  const id = `fork-result-${index}`;
  return (
    <div class="stack">
      <label for={id}>
        Result of {call.action!.tool} (call {index} of step {call.step}; empty: as journaled; JSON or text)
      </label>
      <textarea
        id={id}
        rows={2}
        value={value.text}
        onInput={(e) => onChange({ ...value, text: e.currentTarget.value })}
      />
      <label class="check">
        <input
          type="checkbox"
          checked={value.error}
          onChange={(e) => onChange({ ...value, error: e.currentTarget.checked })}
        />{' '}
        as the call’s error
      </label>
    </div>
  );
}

/** JSON when the text is JSON, else the text itself. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
