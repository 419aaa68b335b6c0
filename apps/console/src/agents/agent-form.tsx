import { AgentChassisError, type AgentProfileFields, type AgentProfileView } from '@app/client';
import { useState } from 'preact/hooks';
import type { ViewProps } from '../view-props';
import { ErrorBox, useLoad } from '../ui';
import {
  FIELD_GROUPS,
  FieldProblem,
  fieldErrors,
  type FieldSpec,
  type FormValues,
  profileOf,
  valuesOf,
} from './agent-fields';
import { ToolPicker } from './tool-picker';

/**
 * An admin's form for a whole agent profile, new (`POST /api/v1/agents`) or edited
 * (`PUT /api/v1/agents/:name`): every field, with the API's limits on the inputs, and what the API
 * refuses shown at the field it names. Empty fields take their defaults.
 */
export function AgentForm({
  client,
  profile,
  onSave,
}: {
  client: ViewProps['client'];
  /** The profile edited; none: a new one. */
  profile?: AgentProfileView;
  onSave: (profile: AgentProfileFields) => Promise<void>;
}) {
  const functions = useLoad(() => client.functions.list(), [client]);
  const [values, setValues] = useState<FormValues>(() => valuesOf(profile));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState('');
  const editing = profile !== undefined;
  const idOf = (key: string) => `agent-${key.replace('.', '-')}`;
  const catalogue = functions.value?.map((f) => f.name) ?? [];

  async function submit() {
    setError(undefined);
    setErrors({});
    setDone('');
    try {
      const body = profileOf(values);
      await onSave(body);
      setDone(`Agent ${body.name} ${editing ? 'saved' : 'created'}.`);
    } catch (err) {
      if (err instanceof FieldProblem) setErrors({ [err.field]: err.message });
      else if (err instanceof AgentChassisError) setErrors(fieldErrors(err.details));
      setError(err);
      const first = document.querySelector<HTMLElement>('[aria-invalid="true"]');
      first?.focus();
    }
  }

  const field = (spec: FieldSpec) => {
    const id = idOf(spec.key);
    const problem = errors[spec.key];
    if (spec.kind === 'tools')
      return (
        <ToolPicker
          key={spec.key}
          id={id}
          label={spec.label}
          catalogue={catalogue}
          value={(values[spec.key] as string[] | undefined) ?? []}
          onChange={(v) => setValues({ ...values, [spec.key]: v })}
          error={problem}
        />
      );
    return (
      <div class={`field ${spec.kind}`} key={spec.key}>
        <Input spec={spec} id={id} values={values} setValues={setValues} problem={problem} locked={editing} />
        {spec.hint && (
          <span class="muted hint">{spec.kind === 'json' ? `e.g. ${spec.hint}` : spec.hint}</span>
        )}
        {problem && (
          <span class="error" id={`${id}-error`}>
            {problem}
          </span>
        )}
      </div>
    );
  };

  return (
    <form
      class="stack wide agent-form"
      aria-label={editing ? `Edit agent ${profile.name}` : 'Create an agent'}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>{editing ? `Edit ${profile.name}` : 'New agent'}</h3>
      {FIELD_GROUPS.map((group) => (
        <fieldset key={group.title} class="group">
          <legend>{group.title}</legend>
          {group.fields.map(field)}
        </fieldset>
      ))}
      <ErrorBox error={functions.error} />
      <button type="submit">{editing ? 'Save agent' : 'Create agent'}</button>
      {done && <p role="status">{done}</p>}
      <ErrorBox error={error} />
    </form>
  );
}

function Input({
  spec,
  id,
  values,
  setValues,
  problem,
  locked,
}: {
  spec: FieldSpec;
  id: string;
  values: FormValues;
  setValues: (values: FormValues) => void;
  problem?: string;
  locked: boolean;
}) {
  const value = values[spec.key];
  const set = (v: string | boolean) => setValues({ ...values, [spec.key]: v });
  const common = {
    id,
    'aria-invalid': problem ? ('true' as const) : undefined,
    'aria-describedby': problem ? `${id}-error` : undefined,
  };
  if (spec.kind === 'checkbox')
    return (
      <label class="check" for={id}>
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(e) => set(e.currentTarget.checked)}
        />{' '}
        {spec.label}
      </label>
    );
  const label = <label for={id}>{spec.label}</label>;
  if (spec.kind === 'select')
    return (
      <>
        {label}
        <select {...common} value={(value as string) ?? ''} onChange={(e) => set(e.currentTarget.value)}>
          <option value="">(default)</option>
          {spec.options!.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </>
    );
  if (spec.kind === 'textarea' || spec.kind === 'json')
    return (
      <>
        {label}
        <textarea
          {...common}
          rows={spec.kind === 'json' ? 4 : 5}
          spellcheck={spec.kind !== 'json'}
          value={(value as string) ?? ''}
          onInput={(e) => set(e.currentTarget.value)}
        />
      </>
    );
  const shared = {
    ...common,
    required: spec.key === 'name',
    readOnly: spec.key === 'name' && locked,
    value: (value as string) ?? '',
    onInput: (e: { currentTarget: HTMLInputElement }) => set(e.currentTarget.value),
  };
  return (
    <>
      {label}
      {spec.kind === 'number' ? (
        <input {...shared} type="number" min={spec.min} max={spec.max} step={spec.step ?? 1} />
      ) : (
        <input {...shared} type="text" />
      )}
    </>
  );
}
