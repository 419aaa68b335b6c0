import type { AgentProfileFields, AgentProfileView } from '@app/client';

/** The profile's enumerations, as the API lists them (agent-fields.spec.ts holds them to libs/contracts). */
export const PROTOCOLS = ['xml-toon', 'json-action', 'native'] as const;
export const MODES = ['react', 'plan'] as const;
export const STEP_FAILURES = ['skip', 'abort', 'replan'] as const;
export const ROUTINGS = ['join', 'new', 'auto'] as const;
export const APPROVAL_DEFAULTS = ['reject', 'approve'] as const;
export const LANGUAGES = ['en', 'zh'] as const;
export const MEMORY_SCOPES = ['session', 'principal', 'agent'] as const;

export type FieldKind = 'text' | 'textarea' | 'number' | 'select' | 'checkbox' | 'tools' | 'json';

/** One field of the form: its profile key, label, kind and the limits the API checks. */
export interface FieldSpec {
  key: string;
  label: string;
  kind: FieldKind;
  options?: readonly string[];
  min?: number;
  max?: number;
  step?: number;
  hint?: string;
}

/** Every field of a profile, in groups; the limits are the API's (libs/contracts agent-profile.ts). */
export const FIELD_GROUPS: { title: string; fields: FieldSpec[] }[] = [
  {
    title: 'Basics',
    fields: [
      { key: 'name', label: 'Name', kind: 'text' },
      { key: 'description', label: 'Description', kind: 'text' },
      { key: 'system_prompt', label: 'System prompt', kind: 'textarea' },
      { key: 'model', label: 'Model', kind: 'text', hint: 'empty: the platform’s' },
      { key: 'protocol', label: 'Protocol', kind: 'select', options: PROTOCOLS },
      { key: 'mode', label: 'Mode', kind: 'select', options: MODES },
      { key: 'language', label: 'Prompt language', kind: 'select', options: LANGUAGES },
    ],
  },
  {
    title: 'Tools and approval',
    fields: [
      { key: 'allowed_tools', label: 'Allowed tools', kind: 'tools' },
      { key: 'needs_approval', label: 'Calls that need approval', kind: 'tools' },
      {
        key: 'approval_timeout',
        label: 'Approval timeout (ms)',
        kind: 'number',
        min: 1_000,
        max: 604_800_000,
      },
      { key: 'approval_default', label: 'On approval timeout', kind: 'select', options: APPROVAL_DEFAULTS },
      { key: 'expose_as_function', label: 'Callable as the function agent_<name>', kind: 'checkbox' },
    ],
  },
  {
    title: 'Limits',
    fields: [
      { key: 'max_steps', label: 'Max steps', kind: 'number', min: 1, max: 100 },
      { key: 'max_tool_calls', label: 'Max tool calls', kind: 'number', min: 0, max: 1_000 },
      { key: 'single_call_timeout', label: 'Per-call timeout (ms)', kind: 'number', min: 1, max: 3_600_000 },
      { key: 'run_timeout', label: 'Run timeout (ms)', kind: 'number', min: 1, max: 86_400_000 },
      { key: 'total_token_budget', label: 'Token budget (0: none)', kind: 'number', min: 0 },
      { key: 'max_cost_usd', label: 'Max cost per run (USD)', kind: 'number', min: 0.000001, step: 0.000001 },
      { key: 'observation_max_len', label: 'Observation length', kind: 'number', min: 64, max: 1_000_000 },
      { key: 'context_window', label: 'Context window (tokens)', kind: 'number', min: 256, max: 10_000_000 },
      { key: 'temperature', label: 'Temperature', kind: 'number', min: 0, max: 2, step: 0.1 },
      { key: 'max_tokens', label: 'Max tokens per reply', kind: 'number', min: 1, max: 1_000_000 },
    ],
  },
  {
    title: 'Plan, routing and memory',
    fields: [
      { key: 'plan_approval', label: 'Hold plans for approval', kind: 'checkbox' },
      { key: 'step_failure', label: 'When a plan step fails', kind: 'select', options: STEP_FAILURES },
      { key: 'routing', label: 'Messages during a run', kind: 'select', options: ROUTINGS },
      { key: 'memory.enabled', label: 'Long-term memory', kind: 'checkbox' },
      { key: 'memory.scope', label: 'Memory scope', kind: 'select', options: MEMORY_SCOPES },
    ],
  },
  {
    title: 'Hooks and prompt templates',
    fields: [
      {
        key: 'hooks',
        label: 'Hooks (JSON)',
        kind: 'json',
        hint: '[{"event": "before_tool", "function": "audit"}]',
      },
      { key: 'prompts', label: 'Prompt templates (JSON)', kind: 'json', hint: '{"system": "…"}' },
    ],
  },
];

export type FormValues = Record<string, string | boolean | string[]>;

/** What the form starts from: a profile to edit (its values as shown), or a new one. */
export function valuesOf(profile?: AgentProfileView): FormValues {
  if (!profile) return { mode: 'react', protocol: 'xml-toon', allowed_tools: [], needs_approval: [] };
  const values: FormValues = {};
  for (const field of FIELD_GROUPS.flatMap((g) => g.fields)) {
    const value = read(profile as unknown as Record<string, unknown>, field.key);
    if (value === undefined || value === null) continue;
    if (field.kind === 'json') {
      const empty = Array.isArray(value) ? value.length === 0 : Object.keys(value as object).length === 0;
      if (!empty) values[field.key] = JSON.stringify(value, null, 2);
    } else if (field.kind === 'tools') values[field.key] = [...(value as string[])];
    else if (field.kind === 'checkbox') values[field.key] = Boolean(value);
    else values[field.key] = String(value);
  }
  return values;
}

/** The profile the form's values make: empty fields left out (their defaults apply); bad JSON throws, naming the field. */
export function profileOf(values: FormValues): AgentProfileFields {
  const profile: Record<string, unknown> = {};
  for (const field of FIELD_GROUPS.flatMap((g) => g.fields)) {
    const value = values[field.key];
    if (value === undefined || value === '') continue;
    if (field.kind === 'number') write(profile, field.key, Number(value));
    else if (field.kind === 'tools') {
      if ((value as string[]).length) write(profile, field.key, value);
    } else if (field.kind === 'json') write(profile, field.key, parseJson(field, String(value)));
    else write(profile, field.key, value);
  }
  const memory = profile.memory as { enabled?: boolean; scope?: string } | undefined;
  if (memory && memory.enabled === undefined) memory.enabled = false;
  return profile as unknown as AgentProfileFields;
}

function parseJson(field: FieldSpec, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new FieldProblem(field.key, `is not JSON: ${(err as Error).message}`);
  }
}

/** A field the form itself finds wrong, before the API is asked. */
export class FieldProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/** The API's `invalid_params` details as `{field: message}` (nested fields by their first segment too). */
export function fieldErrors(details: unknown): Record<string, string> {
  if (!Array.isArray(details)) return {};
  const errors: Record<string, string> = {};
  for (const item of details as { field?: unknown; message?: unknown }[]) {
    if (typeof item?.field !== 'string' || typeof item.message !== 'string') continue;
    const key = item.field.startsWith('memory.') ? item.field : item.field.split('.')[0];
    errors[key] = errors[key] ? `${errors[key]}; ${item.message}` : item.message;
  }
  return errors;
}

function read(record: Record<string, unknown>, key: string): unknown {
  const [head, tail] = key.split('.');
  const value = record[head];
  return tail ? (value as Record<string, unknown> | undefined)?.[tail] : value;
}

function write(record: Record<string, unknown>, key: string, value: unknown): void {
  const [head, tail] = key.split('.');
  if (!tail) record[head] = value;
  else record[head] = { ...(record[head] as object | undefined), [tail]: value };
}
