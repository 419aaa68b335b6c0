import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Bus } from '@app/bus';
import { AGENT_FUNCTION_PROVIDER, type AgentProfileView } from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { type AgentFunction, FunctionHost, FunctionRegistry } from '@app/functions';
import { Logger } from '@app/observability';
import { PLATFORM_CONFIG, SERVICE_INFO, type ServiceInfo } from '@app/runtime';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { agentFunctionName } from './agent-chain';
import { AgentCallsService } from './agent-calls.service';
import { AgentMessageParams } from './agent-message.params';

/** Agent runs called as functions at once on one executor. */
const CONCURRENCY = 64;
/** Of the shutdown timeout, what calls in flight may use before they are given up. */
const FINISH_SHARE = 0.6;
/** Profiles created on another executor are served here within this long. */
const REFRESH_MS = 10_000;

/**
 * Serves every profile with `expose_as_function` as the function `agent_<name>`, through the same
 * function host as the runner and the scheduler: in the catalogue, on `fn.exec.agent_<name>`.
 */
@Injectable()
export class AgentFunctionsHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly registry: FunctionRegistry;
  private readonly host: FunctionHost;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;

  constructor(
    @Inject(Bus) bus: Bus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(SERVICE_INFO) info: ServiceInfo,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(AgentCallsService) private readonly calls: AgentCallsService,
    @Inject(Logger) private readonly logger: Logger,
  ) {
    this.registry = new FunctionRegistry(config.executor.run_timeout);
    this.host = new FunctionHost({
      bus,
      registry: this.registry,
      logger,
      provider: AGENT_FUNCTION_PROVIDER,
      instance: info.instance,
      concurrency: CONCURRENCY,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.refresh();
    await this.host.start();
    this.unsubscribe = this.profiles.onChanged(() => void this.refresh());
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.unsubscribe?.();
    // as runs in flight do (LeaseSweeper): past this share of the shutdown timeout they are handed over
    await this.host.stop(this.config.shutdown.timeout * FINISH_SHARE);
  }

  /** Serves the exposed profiles as they are now: new ones added, removed ones dropped. */
  async refresh(): Promise<void> {
    try {
      const exposed = (await this.profiles.list()).filter((p) => p.expose_as_function);
      const rejected = this.registry.setGroup(
        AGENT_FUNCTION_PROVIDER,
        exposed.flatMap((p) => this.functionFor(p)),
      );
      for (const r of rejected) this.logger.warn('an agent cannot be served as a function', { ...r });
    } catch (err) {
      this.logger.warn('could not read the agents served as functions', { err });
    }
  }

  private functionFor(profile: AgentProfileView): AgentFunction<AgentMessageParams>[] {
    const name = agentFunctionName(profile.name);
    if (!name) {
      this.logger.warn('an agent name cannot name a function (lower case, digits and _ only)', {
        agent: profile.name,
      });
      return [];
    }
    return [
      {
        name,
        description: profile.description || `Ask the agent '${profile.name}'; it answers with its reply.`,
        params: AgentMessageParams,
        timeoutMs: this.config.executor.run_timeout,
        execute: (params, ctx) => this.calls.call(profile.name, params, ctx),
      },
    ];
  }
}
