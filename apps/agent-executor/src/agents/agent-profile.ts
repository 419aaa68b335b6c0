import { DEFINITION_DEFAULTS } from '@app/agent-core';
import type { AgentProfileSpec, AgentProfileView } from '@app/contracts';
import type { LlmProviderKind } from '@app/llm';

/** A profile with every default filled in: what a run is configured by. */
export interface AgentProfile extends AgentProfileView {
  base_url?: string;
  api_key?: string;
}

export const DEFAULT_AGENT = 'default';

const DEFAULTS = {
  ...DEFINITION_DEFAULTS,
  description: '',
  memory: { enabled: false, scope: 'agent' },
} as const satisfies Omit<AgentProfileView, 'name' | 'source'>;

/** The built-in `default` agent may call every function; a config-file `default` replaces it. */
export const BUILTIN_DEFAULT: AgentProfileSpec = { name: DEFAULT_AGENT, allowed_tools: ['*'] };

export function resolveProfile(spec: AgentProfileSpec, source: AgentProfile['source']): AgentProfile {
  const defined = Object.fromEntries(Object.entries(spec).filter(([, value]) => value !== undefined));
  return {
    ...DEFAULTS,
    allowed_tools: [...DEFAULTS.allowed_tools],
    ...defined,
    memory: { ...DEFAULTS.memory, ...(spec.memory ?? {}) },
    source,
  } as unknown as AgentProfile;
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
