import type { CreateCronBody, CreateDelayBody } from '@app/client';
import { useState } from 'preact/hooks';
import type { ViewProps } from './view-props';
import { ErrorBox } from './ui';

/** What a task does: a function with params, or a message to an agent. */
function target(fn: string, params: string, message: string, agent: string) {
  if (message.trim()) return { message: message.trim(), ...(agent ? { agent } : {}) };
  return {
    function: fn.trim(),
    ...(params.trim() ? { params: JSON.parse(params) as Record<string, unknown> } : {}),
  };
}

function TargetFields({ prefix, state }: { prefix: string; state: ReturnType<typeof useTarget> }) {
  return (
    <>
      <label for={`${prefix}-function`}>Function</label>
      <input id={`${prefix}-function`} value={state.fn} onInput={(e) => state.setFn(e.currentTarget.value)} />
      <label for={`${prefix}-params`}>Params (JSON)</label>
      <textarea
        id={`${prefix}-params`}
        rows={2}
        value={state.params}
        onInput={(e) => state.setParams(e.currentTarget.value)}
      />
      <label for={`${prefix}-message`}>Or a message to an agent</label>
      <input
        id={`${prefix}-message`}
        value={state.message}
        onInput={(e) => state.setMessage(e.currentTarget.value)}
      />
      <label for={`${prefix}-agent`}>Agent (with a message)</label>
      <input
        id={`${prefix}-agent`}
        value={state.agent}
        onInput={(e) => state.setAgent(e.currentTarget.value)}
      />
    </>
  );
}

function useTarget() {
  const [fn, setFn] = useState('');
  const [params, setParams] = useState('');
  const [message, setMessage] = useState('');
  const [agent, setAgent] = useState('');
  return { fn, setFn, params, setParams, message, setMessage, agent, setAgent };
}

export function DelayForm({ client, onCreated }: { client: ViewProps['client']; onCreated: () => void }) {
  const t = useTarget();
  const [name, setName] = useState('');
  const [runAt, setRunAt] = useState('');
  const [error, setError] = useState<unknown>();
  async function submit() {
    setError(undefined);
    try {
      // datetime-local is the browser's local time; the API takes an ISO time with its offset
      const body: CreateDelayBody = {
        name,
        run_at: new Date(runAt).toISOString(),
        ...target(t.fn, t.params, t.message, t.agent),
      };
      await client.delays.create(body);
      onCreated();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <form class="stack" aria-label="Create a delay" onSubmit={(e) => (e.preventDefault(), void submit())}>
      <h3>New delay</h3>
      <label for="delay-name">Name</label>
      <input id="delay-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="delay-run-at">Run at (your time)</label>
      <input
        id="delay-run-at"
        type="datetime-local"
        step={1}
        required
        value={runAt}
        onInput={(e) => setRunAt(e.currentTarget.value)}
      />
      <TargetFields prefix="delay" state={t} />
      <button type="submit">Create delay</button>
      <ErrorBox error={error} />
    </form>
  );
}

export function CronForm({ client, onCreated }: { client: ViewProps['client']; onCreated: () => void }) {
  const t = useTarget();
  const [name, setName] = useState('');
  const [expr, setExpr] = useState('');
  const [timezone, setTimezone] = useState(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [error, setError] = useState<unknown>();
  async function submit() {
    setError(undefined);
    try {
      const body: CreateCronBody = {
        name,
        cron_expr: expr,
        ...(timezone ? { timezone } : {}),
        ...target(t.fn, t.params, t.message, t.agent),
      };
      await client.crons.create(body);
      onCreated();
    } catch (err) {
      setError(err);
    }
  }
  return (
    <form class="stack" aria-label="Create a cron" onSubmit={(e) => (e.preventDefault(), void submit())}>
      <h3>New cron</h3>
      <label for="cron-name">Name</label>
      <input id="cron-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="cron-expr">Cron expression</label>
      <input
        id="cron-expr"
        required
        placeholder="*/5 * * * *"
        value={expr}
        onInput={(e) => setExpr(e.currentTarget.value)}
      />
      <label for="cron-tz">Time zone</label>
      <input id="cron-tz" value={timezone} onInput={(e) => setTimezone(e.currentTarget.value)} />
      <TargetFields prefix="cron" state={t} />
      <button type="submit">Create cron</button>
      <ErrorBox error={error} />
    </form>
  );
}
