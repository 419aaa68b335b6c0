import { describe, expect, it } from 'vitest';
import {
  AGENT_MODES,
  AGENT_PROTOCOLS,
  AgentProfileFields,
  APPROVAL_DEFAULTS as CONTRACT_APPROVAL_DEFAULTS,
  MEMORY_SCOPES as CONTRACT_MEMORY_SCOPES,
  parseDto,
  PROMPT_LANGUAGES,
  ROUTINGS as CONTRACT_ROUTINGS,
  STEP_FAILURE_POLICIES,
} from '@app/contracts';
import {
  APPROVAL_DEFAULTS,
  FIELD_GROUPS,
  fieldErrors,
  FieldProblem,
  LANGUAGES,
  MEMORY_SCOPES,
  MODES,
  profileOf,
  PROTOCOLS,
  ROUTINGS,
  STEP_FAILURES,
  valuesOf,
} from './agent-fields';

describe('the agent form’s fields', () => {
  it('offers exactly the choices the API accepts', () => {
    expect(PROTOCOLS).toEqual(AGENT_PROTOCOLS);
    expect(MODES).toEqual(AGENT_MODES);
    expect(STEP_FAILURES).toEqual(STEP_FAILURE_POLICIES);
    expect(ROUTINGS).toEqual(CONTRACT_ROUTINGS);
    expect(APPROVAL_DEFAULTS).toEqual(CONTRACT_APPROVAL_DEFAULTS);
    expect(LANGUAGES).toEqual(PROMPT_LANGUAGES);
    expect(MEMORY_SCOPES).toEqual(CONTRACT_MEMORY_SCOPES);
  });

  it('has a field for every field of a profile the API takes', () => {
    const keys = new Set(FIELD_GROUPS.flatMap((g) => g.fields.map((f) => f.key.split('.')[0])));
    const full = parseDto(AgentProfileFields, everyField(), 'agent profile');
    expect([...keys].sort()).toEqual(Object.keys(full).sort());
  });

  it('makes a profile the API accepts from what the form shows, and back', () => {
    const profile = parseDto(AgentProfileFields, everyField(), 'agent profile');
    const view = { ...profile, source: 'api', allowed_tools: profile.allowed_tools ?? [] };
    const again = profileOf(valuesOf(view as never));
    expect(parseDto(AgentProfileFields, again, 'agent profile')).toEqual(profile);
  });

  it('leaves empty fields out, so their defaults apply', () => {
    expect(profileOf({ name: 'a', model: '', max_steps: '', allowed_tools: [], hooks: '' })).toEqual({
      name: 'a',
    });
  });

  it('names the field whose JSON does not parse, before asking the API', () => {
    expect(() => profileOf({ name: 'a', hooks: '[{' })).toThrow(FieldProblem);
  });

  it('reads the API’s field errors by the form’s field', () => {
    expect(
      fieldErrors([
        { field: 'max_steps', message: 'must not be greater than 100' },
        { field: 'hooks.0.event', message: 'must be one of …' },
        { field: 'memory.scope', message: 'must be one of …' },
      ]),
    ).toEqual({
      max_steps: 'must not be greater than 100',
      hooks: 'must be one of …',
      'memory.scope': 'must be one of …',
    });
  });
});

function everyField() {
  return {
    name: 'helper',
    description: 'Adds numbers',
    system_prompt: 'You add.',
    model: 'gpt-4.1-mini',
    protocol: 'json-action',
    mode: 'plan',
    allowed_tools: ['add', 'delay_*'],
    max_steps: 7,
    max_tool_calls: 9,
    single_call_timeout: 3000,
    total_token_budget: 10000,
    max_cost_usd: 0.5,
    observation_max_len: 2048,
    context_window: 32000,
    run_timeout: 60000,
    temperature: 0.3,
    max_tokens: 800,
    plan_approval: true,
    step_failure: 'replan',
    routing: 'new',
    needs_approval: ['add'],
    approval_timeout: 60000,
    approval_default: 'approve',
    hooks: [{ event: 'before_tool', function: 'audit' }],
    expose_as_function: true,
    memory: { enabled: true, scope: 'agent' },
    language: 'zh',
    prompts: { system: 'Be brief.' },
  };
}
