import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Bus } from '@app/bus';
import { FunctionHost, FunctionRegistry } from '@app/functions';
import { Logger } from '@app/observability';
import { FUNCTION_PROVIDER, SCHEDULER_SETTINGS, type SchedulerSettings } from '../../config/scheduler.config';
import { TaskFunctions } from './task-functions';

/** Managing a task is quick; this bounds a call stuck on the database. */
const FUNCTION_TIMEOUT_MS = 10_000;

/** Serves delay_* and cron_* over `fn.exec.*` (queue group of the scheduler replicas), with `fn.catalog`. */
@Injectable()
export class TaskFunctionsHandler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly registry = new FunctionRegistry(FUNCTION_TIMEOUT_MS);
  private readonly host: FunctionHost;

  constructor(
    @Inject(Bus) bus: Bus,
    @Inject(TaskFunctions) private readonly functions: TaskFunctions,
    @Inject(SCHEDULER_SETTINGS) private readonly settings: SchedulerSettings,
    @Inject(Logger) private readonly logger: Logger,
  ) {
    this.host = new FunctionHost({
      bus,
      registry: this.registry,
      logger,
      provider: FUNCTION_PROVIDER,
      instance: settings.instance,
      concurrency: settings.concurrency,
      outcomeTtlMs: settings.outcomeTtlMs,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const rejected = this.registry.setGroup(FUNCTION_PROVIDER, this.functions.all());
    for (const r of rejected)
      this.logger.error('a scheduler function was refused', { fn: r.name, reason: r.reason });
    await this.host.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.host.stop(FUNCTION_TIMEOUT_MS);
  }
}
