import { DEFINITION_DEFAULTS, PromptSet } from '@app/agent-core';
import {
  type AgentHookSpec,
  type AgentProfileSpec,
  type AgentProfileView,
  HOOK_TIMEOUT_DEFAULT_MS,
  type ResolvedHook,
} from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import type { LlmProviderKind } from '@app/llm';

/** A profile with every default filled in: what a run is configured by. */
export interface AgentProfile extends AgentProfileView {
  hooks: ResolvedHook[];
  base_url?: string;
  api_key?: string;
  /** The caller's instructions for this turn (the run engine's `turn_instructions`). */
  turn_instructions?: string;
}

export const DEFAULT_AGENT = 'default';

const DEFAULTS = {
  ...DEFINITION_DEFAULTS,
  description: '',
  hooks: [] as ResolvedHook[],
  expose_as_function: false,
  memory: { enabled: false, scope: 'agent' },
} as const satisfies Omit<AgentProfileView, 'name' | 'source'>;

/** The built-in `default` agent may call every function; a config-file `default` replaces it. */
export const BUILTIN_DEFAULT: AgentProfileSpec = { name: DEFAULT_AGENT, allowed_tools: ['*'] };

export function resolveProfile(spec: AgentProfileSpec, source: AgentProfile['source']): AgentProfile {
  const defined = Object.fromEntries(Object.entries(spec).filter(([, value]) => value !== undefined));
  return {
    ...DEFAULTS,
    // without instructions of its own, the agent's `system` template in its language
    system_prompt: new PromptSet(spec).render('system'),
    allowed_tools: [...DEFAULTS.allowed_tools],
    ...defined,
    hooks: (spec.hooks ?? []).map(resolveHook),
    memory: { ...DEFAULTS.memory, ...(spec.memory ?? {}) },
    source,
  } as unknown as AgentProfile;
}

function resolveHook(hook: AgentHookSpec): ResolvedHook {
  return {
    ...hook,
    timeout_ms: hook.timeout_ms ?? HOOK_TIMEOUT_DEFAULT_MS,
    policy: hook.policy ?? 'fail_open',
  };
}

/** What the API shows: never the key, nor the endpoint that key goes with. */
export function toView(profile: AgentProfile): AgentProfileView {
  const { api_key: _key, base_url: _url, ...view } = profile;
  return view;
}

export function modelChoiceOf(profile: AgentProfile) {
  return {
    provider: profile.provider as LlmProviderKind | undefined,
    base_url: profile.base_url,
    api_key: profile.api_key,
  };
}

/** The model a profile's runs call: its own, else the platform's (`LLM_MODEL`); its price is looked up by this name. */
export function modelNameOf(profile: { model?: string }, config: PlatformConfig): string {
  return profile.model ?? config.llm.model;
}

/**
 * The caller's system messages follow the agent's own prompt, for this turn only, as a system
 * message of their own: the agent's prompt stays the prefix a provider's cache can serve.
 */
export function withInstructions(profile: AgentProfile, instructions: string | undefined): AgentProfile {
  if (!instructions?.trim()) return profile;
  return { ...profile, turn_instructions: instructions.trim() };
}
