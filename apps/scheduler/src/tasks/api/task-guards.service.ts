import { Inject, Injectable } from '@nestjs/common';
import { Bus, NoRespondersError } from '@app/bus';
import {
  AgentNotFoundError,
  AppError,
  type FunctionDefinition,
  InvalidParamsError,
  Routes,
  UnavailableError,
} from '@app/contracts';
import { FunctionCatalog } from '@app/functions';
import { type ParamsValidation, validateParams } from '@app/protocol';
import { FUNCTION_PROVIDER, SCHEDULER_SETTINGS, type SchedulerSettings } from '../../config/scheduler.config';
import { CronTaskRepository } from '../store/cron-task.repository';
import { DelayTaskRepository } from '../store/delay-task.repository';
import type { TaskTargetSpec } from '../domain/task';

const AGENT_CHECK_TIMEOUT_MS = 5_000;

/**
 * The rules a new task must pass beyond its own fields: the owner's quota, and a function that
 * exists and accepts the task's params, or an agent that exists — checked now, not days later when
 * the task fires.
 */
@Injectable()
export class TaskGuards {
  constructor(
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(DelayTaskRepository) private readonly delays: DelayTaskRepository,
    @Inject(CronTaskRepository) private readonly crons: CronTaskRepository,
    @Inject(FunctionCatalog) private readonly catalog: FunctionCatalog,
    @Inject(Bus) private readonly bus: Bus,
  ) {}

  async admit(owner: string, target: TaskTargetSpec): Promise<void> {
    await this.checkQuota(owner);
    if (target.target === 'function') {
      const definition = await this.findFunction(target.function_name);
      checkParams(definition, JSON.parse(target.params) as Record<string, unknown>);
    }
    if (target.target === 'agent' && target.agent) await this.findAgent(target.agent);
  }

  /**
   * The agent a turn is scheduled for must exist now (an executor knows every agent: the
   * configuration's and those made over the API). No executor answering means nothing can be
   * checked: refused for now (503), as for a function.
   */
  private async findAgent(name: string): Promise<void> {
    try {
      await this.bus.request(Routes.agentProfileGet, { name }, { timeoutMs: AGENT_CHECK_TIMEOUT_MS });
    } catch (err) {
      if (err instanceof AppError && AgentNotFoundError.agentOf(err.toBody()) === name)
        throw new InvalidParamsError([
          { field: 'agent', message: `unknown agent '${name}'; list them with GET /api/v1/agents` },
        ]);
      if (err instanceof NoRespondersError)
        throw new UnavailableError(
          `no agent-executor answers right now, so agent '${name}' cannot be checked; try again shortly`,
        );
      throw err;
    }
  }

  private async checkQuota(owner: string): Promise<void> {
    const limit = this.settings.maxTasksPerOwner;
    const active = (await this.delays.countPending(owner)) + (await this.crons.countEnabled(owner));
    if (active >= limit) {
      const who = owner ? `'${owner}'` : 'this owner';
      throw new AppError(
        'forbidden',
        `${who} already has ${active} active tasks, the most allowed (${limit}); cancel or delete one first`,
      );
    }
  }

  /**
   * The function's definition from the catalogue. A name no provider knows is the caller's mistake
   * (400), unless no provider but this scheduler answers at all: then nothing can be checked and
   * the task is refused for now (503) rather than accepted unchecked.
   */
  private async findFunction(name: string): Promise<FunctionDefinition> {
    const found = await this.catalog.get(name);
    if (found) return found;
    // `get` does not gather again for a catalogue under a second old; `list` may have, since.
    const all = await this.catalog.list();
    const listed = all.find((f) => f.name === name);
    if (listed) return listed;
    if (all.every((f) => f.provider === FUNCTION_PROVIDER)) {
      throw new UnavailableError(
        `no function provider answers right now, so function '${name}' cannot be checked; try again shortly`,
      );
    }
    throw new InvalidParamsError([
      {
        field: 'function',
        message: `unknown function '${name}'; available: ${all.map((f) => f.name).join(', ')}`,
      },
    ]);
  }
}

/**
 * The params as the function itself will check them when the task fires: the same validator as
 * every call and `POST /functions/:name/invoke`, with the same messages, each field named inside
 * `params`.
 */
function checkParams(definition: FunctionDefinition, params: Record<string, unknown>): void {
  let result: ParamsValidation;
  try {
    result = validateParams(definition.parameters, params);
  } catch (err) {
    throw new UnavailableError(
      `function '${definition.name}' publishes a parameter schema that cannot be checked (${(err as Error).message})`,
    );
  }
  if (result.ok) return;
  const fields = result.errors.map((e) => ({ field: `params.${e.path}`, message: e.message }));
  throw new InvalidParamsError(fields, `invalid params for ${definition.name}`);
}
