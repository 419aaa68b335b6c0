import type { FnExecReply, FunctionDefinition } from '@app/client';
import { useMemo, useState } from 'preact/hooks';
import { may } from './access';
import type { ViewProps } from './view-props';
import { json } from './format';
import { fieldsOf, type FormField, paramsOf } from './schema-form';
import { McpServers } from './mcp-servers';
import { ErrorBox, Pre, Section, useLoad } from './ui';

export function FunctionsView({ client, scopes, arg }: ViewProps) {
  const list = useLoad(() => client.functions.list(), [client]);
  const selected = list.value?.find((f) => f.name === arg);
  return (
    <Section title="Functions">
      <McpServers client={client} />
      <ErrorBox error={list.error} />
      <div class="split">
        <ul class="list" aria-label="Function catalogue">
          {list.value?.map((fn) => (
            <li key={fn.name}>
              <a
                href={`#/functions/${encodeURIComponent(fn.name)}`}
                aria-current={fn.name === arg ? 'true' : undefined}
              >
                {fn.name}
              </a>{' '}
              <span class="muted">{fn.provider ?? ''}</span>
            </li>
          ))}
        </ul>
        <div>
          {selected ? (
            <FunctionDetail
              fn={selected}
              client={client}
              canInvoke={may(scopes, 'functions:invoke')}
              key={selected.name}
            />
          ) : (
            <p class="muted">{list.value?.length ?? 0} functions. Pick one to see its schema and try it.</p>
          )}
        </div>
      </div>
    </Section>
  );
}

function FunctionDetail({
  fn,
  client,
  canInvoke,
}: {
  fn: FunctionDefinition;
  client: ViewProps['client'];
  canInvoke: boolean;
}) {
  const fields = useMemo(() => fieldsOf(fn.parameters), [fn]);
  const [values, setValues] = useState<Record<string, string>>({});
  const [reply, setReply] = useState<FnExecReply | undefined>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  async function invoke() {
    setReply(undefined);
    setError(undefined);
    const read = paramsOf(fields, values);
    if ('error' in read) return setError(new Error(read.error));
    setBusy(true);
    try {
      setReply(await client.functions.invoke(fn.name, { params: read.params }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <article aria-label={`Function ${fn.name}`}>
      <h3>{fn.name}</h3>
      <p>{fn.description}</p>
      {fn.timeout_ms !== undefined && <p class="muted">timeout {fn.timeout_ms} ms</p>}
      <p>Parameters (JSON Schema)</p>
      <Pre label={`${fn.name} schema`}>{json(fn.parameters)}</Pre>
      {canInvoke && (
        <form
          class="stack"
          aria-label="Try it"
          onSubmit={(e) => {
            e.preventDefault();
            void invoke();
          }}
        >
          <h4>Try it</h4>
          {fields.map((field) => (
            <Field
              field={field}
              value={values[field.name] ?? field.initial}
              key={field.name}
              onChange={(v) => setValues({ ...values, [field.name]: v })}
            />
          ))}
          <button type="submit" disabled={busy}>
            Invoke
          </button>
        </form>
      )}
      <ErrorBox error={error} />
      {reply && (
        <div aria-label="Invocation result">
          <p class={reply.status === 'success' ? 'ok' : 'bad'}>
            {reply.status} in {reply.elapsed_ms} ms
          </p>
          {reply.status === 'error' && reply.error && <p class="error">{reply.error.message}</p>}
          <Pre label="Result">{json(reply.status === 'success' ? reply.result : reply.error)}</Pre>
        </div>
      )}
    </article>
  );
}

function Field({
  field,
  value,
  onChange,
}: {
  field: FormField;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = `param-${field.name}`;
  const label = (
    <label for={id}>
      {field.name}
      {field.required ? ' *' : ''}
      {field.description && <span class="muted"> — {field.description}</span>}
    </label>
  );
  if (field.control === 'checkbox')
    return (
      <div class="row">
        <input
          id={id}
          type="checkbox"
          checked={value === 'true'}
          onChange={(e) => onChange(String(e.currentTarget.checked))}
        />
        {label}
      </div>
    );
  return (
    <>
      {label}
      {field.control === 'select' ? (
        <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
          <option value="">(none)</option>
          {field.options!.map((o) => (
            <option value={o.value} key={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : field.control === 'json' ? (
        <textarea
          id={id}
          rows={3}
          value={value}
          placeholder="JSON"
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      ) : field.control === 'number' ? (
        <input
          id={id}
          type="number"
          step={field.integer ? 1 : 'any'}
          min={field.min}
          max={field.max}
          value={value}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      ) : (
        <input id={id} type="text" value={value} onInput={(e) => onChange(e.currentTarget.value)} />
      )}
    </>
  );
}
