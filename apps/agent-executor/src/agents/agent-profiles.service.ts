import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentProfileFields,
  AgentProfileSpec,
  type AgentProfileView,
  AppError,
  ConflictError,
  AgentNotFoundError,
  Events,
  parseDto,
} from '@app/contracts';
import { Bus } from '@app/bus';
import { ConfigError, type PlatformConfig } from '@app/config';
import { PLATFORM_CONFIG } from '@app/runtime';
import { MEMORY_FUNCTION_NAMES } from '@app/agent-core';
import { FUNCTION_DESCRIBE } from '@app/protocol';
import { checkWebhooks } from '../hooks/webhook-guard';
import { FunctionCatalogService } from '../tools/function-catalog.service';
import { AgentProfileRepository } from '../store/agent-profile.repository';
import { type AgentProfile, BUILTIN_DEFAULT, DEFAULT_AGENT, resolveProfile, toView } from './agent-profile';

const API_PROFILE_TTL_MS = 10_000;
/** Functions every run answers itself, never in the catalogue. */
const LOCAL_FUNCTIONS = new Set<string>([FUNCTION_DESCRIBE, ...MEMORY_FUNCTION_NAMES]);

/**
 * Agent profiles from three places, first match wins: the configuration file (validated at boot:
 * a bad profile stops the service naming its key), the built-in `default`, and REST.
 */
@Injectable()
export class AgentProfilesService {
  private readonly fromConfig: Map<string, AgentProfile>;
  private readonly apiCache = new Map<string, { profile: AgentProfile; until: number }>();
  private readonly webhookDomains: readonly string[];
  private readonly listeners = new Set<() => void>();

  constructor(
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
    @Inject(AgentProfileRepository) private readonly repository: AgentProfileRepository,
    @Inject(Bus) private readonly bus: Bus,
    @Inject(FunctionCatalogService) private readonly catalog: FunctionCatalogService,
  ) {
    this.webhookDomains = config.functions.http.allowed_domains;
    const profiles = readConfigProfiles(config.sections.agents, this.webhookDomains);
    this.fromConfig = new Map(profiles.map((p) => [p.name, p]));
    if (!this.fromConfig.has(DEFAULT_AGENT))
      this.fromConfig.set(DEFAULT_AGENT, resolveProfile(BUILTIN_DEFAULT, 'builtin'));
  }

  /** The agents of the configuration file (and `default`): known before any run. */
  configuredNames(): string[] {
    return [...this.fromConfig.keys()];
  }

  async get(name: string): Promise<AgentProfile> {
    const profile = this.fromConfig.get(name) ?? (await this.fromApi(name));
    if (!profile) throw new AgentNotFoundError(name);
    return profile;
  }

  async view(name: string): Promise<AgentProfileView> {
    return toView(await this.get(name));
  }

  async list(): Promise<AgentProfileView[]> {
    const stored = (await this.repository.list()).filter((spec) => !this.fromConfig.has(spec.name));
    const all = [...this.fromConfig.values(), ...stored.map((spec) => resolveProfile(spec, 'api'))];
    return all.map(toView).sort((a, b) => a.name.localeCompare(b.name));
  }

  async create(spec: AgentProfileFields, owner = ''): Promise<AgentProfileView> {
    checkWebhooks(this.webhookDomains, spec.hooks);
    if (this.fromConfig.has(spec.name) || !(await this.repository.create(spec, owner))) {
      throw new ConflictError(`agent '${spec.name}' already exists`);
    }
    this.changed(spec.name);
    return this.withWarnings(toView(resolveProfile(spec, 'api')));
  }

  /** Replaces a profile made over the API; the next run of the agent, on any executor, uses it. */
  async update(spec: AgentProfileFields): Promise<AgentProfileView> {
    this.refuseConfigured(spec.name);
    checkWebhooks(this.webhookDomains, spec.hooks);
    if (!(await this.repository.replace(spec))) throw new AgentNotFoundError(spec.name);
    this.changed(spec.name);
    return this.withWarnings(toView(resolveProfile(spec, 'api')));
  }

  /** Deletes a profile made over the API; its runs and sessions stay. */
  async delete(name: string): Promise<{ deleted: true }> {
    this.refuseConfigured(name);
    if (!(await this.repository.delete(name))) throw new AgentNotFoundError(name);
    this.changed(name);
    return { deleted: true };
  }

  /** Called after a profile made over the API changed, here or on another executor; returns the unsubscribe function. */
  onChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * A profile changed on another executor (or here): the cached copy goes, so the next run reads
   * the stored one, and what depends on the list of profiles (agents as functions) is told.
   */
  forget(name: string): void {
    this.apiCache.delete(name);
    for (const listener of this.listeners) listener();
  }

  private changed(name: string): void {
    this.forget(name);
    this.bus.publish(Events.agentProfileChanged, { name });
  }

  private refuseConfigured(name: string): void {
    const configured = this.fromConfig.get(name);
    if (configured)
      throw new ConflictError(
        `agent '${name}' comes from ${configured.source === 'builtin' ? 'the platform' : 'the configuration file'}; only a profile made over the API can be changed`,
      );
  }

  /**
   * An `allowed_tools` name no provider serves now is accepted (an MCP server still connecting, a
   * provider not started yet would serve it), with a warning in the reply: not refused, not silent.
   */
  private async withWarnings(view: AgentProfileView): Promise<AgentProfileView> {
    const exact = view.allowed_tools.filter((entry) => !entry.includes('*') && !LOCAL_FUNCTIONS.has(entry));
    if (exact.length === 0) return view;
    const served = new Set((await this.catalog.list().catch(() => [])).map((fn) => fn.name));
    const warnings = exact
      .filter((name) => !served.has(name))
      .map(
        (name) =>
          `allowed_tools names '${name}', which no function provider serves now; the agent can call it once one does`,
      );
    return warnings.length > 0 ? { ...view, warnings } : view;
  }

  private async fromApi(name: string): Promise<AgentProfile | undefined> {
    const cached = this.apiCache.get(name);
    if (cached && cached.until > Date.now()) return cached.profile;
    const spec = await this.repository.find(name);
    if (!spec) return undefined;
    const profile = resolveProfile(spec, 'api');
    this.apiCache.set(name, { profile, until: Date.now() + API_PROFILE_TTL_MS });
    return profile;
  }
}

/**
 * `agents:` in the YAML file: a list of profiles. Throws a ConfigError naming the bad key.
 * `webhookDomains`: where a webhook hook may go (http_request's allowed domains).
 */
export function readConfigProfiles(section: unknown, webhookDomains: readonly string[] = []): AgentProfile[] {
  if (section === undefined || section === null) return [];
  if (!Array.isArray(section)) throw new ConfigError('agents', 'must be a list of agent profiles');
  const seen = new Set<string>();
  return section.map((item, i) => {
    const label = `agents[${i}]${isNamed(item) ? ` (${item.name})` : ''}`;
    let spec: AgentProfileSpec;
    try {
      spec = parseDto(AgentProfileSpec, item, 'agent profile');
      checkWebhooks(webhookDomains, spec.hooks);
    } catch (err) {
      throw new ConfigError(label, err instanceof AppError ? err.message : String(err));
    }
    if (seen.has(spec.name)) throw new ConfigError(label, `agent '${spec.name}' is defined twice`);
    seen.add(spec.name);
    return resolveProfile(spec, 'config');
  });
}

function isNamed(item: unknown): item is { name: string } {
  return typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string';
}
