import { type DynamicModule, Module } from '@nestjs/common';
import { Bus } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import { FunctionCatalog, FunctionClient } from '@app/functions';
import { DatabaseHealth, PersistenceModule } from '@app/persistence';
import { healthCheckOf, RedisModule, SERVICE_INFO, type ServiceInfo } from '@app/runtime';
import { SCHEDULER_SETTINGS, schedulerSettings } from './config/scheduler.config';
import { CronTasksService } from './tasks/api/cron-tasks.service';
import { DelayTasksService } from './tasks/api/delay-tasks.service';
import { SchedulerHandler } from './tasks/api/scheduler.handler';
import { TaskFunctions } from './tasks/api/task-functions';
import { TaskFunctionsHandler } from './tasks/api/task-functions.handler';
import { TaskGuards } from './tasks/api/task-guards.service';
import { CronMetrics } from './tasks/firing/cron-metrics';
import { FireJob } from './tasks/firing/fire.job';
import { FireService } from './tasks/firing/fire.service';
import { TaskClaims } from './tasks/firing/task-claims.service';
import { TaskQueue } from './tasks/firing/task-queue.service';
import { TaskRunner } from './tasks/firing/task-runner.service';
import { TriggerTimers } from './tasks/firing/trigger-timers.service';
import { CronReconcileService } from './tasks/reconcile/cron-reconcile.service';
import { ReconcileService } from './tasks/reconcile/reconcile.service';
import { SchedulerLifecycle } from './tasks/reconcile/scheduler-lifecycle.service';
import { CronTaskRepository } from './tasks/store/cron-task.repository';
import { DelayTaskRepository } from './tasks/store/delay-task.repository';
import { FunctionCallRecords } from './tasks/store/function-call-records.repository';
import { TaskFireRepository } from './tasks/store/task-fire.repository';
import { KeyBudgetRepository, UsageLimits } from '@app/limits';

@Module({})
export class SchedulerModule {
  static register(runtime: DynamicModule, config: PlatformConfig): DynamicModule {
    return {
      module: SchedulerModule,
      imports: [
        runtime,
        PersistenceModule.forRoot(config.database.url),
        RedisModule.forRoot(config.redis.url),
      ],
      providers: [
        healthCheckOf('database', DatabaseHealth),
        {
          provide: SCHEDULER_SETTINGS,
          useFactory: (info: ServiceInfo) => schedulerSettings(config, info),
          inject: [SERVICE_INFO],
        },
        { provide: FunctionClient, useFactory: (bus: Bus) => new FunctionClient(bus), inject: [Bus] },
        { provide: FunctionCatalog, useFactory: (bus: Bus) => catalog(bus), inject: [Bus] },
        DelayTaskRepository,
        CronTaskRepository,
        TaskFireRepository,
        KeyBudgetRepository,
        UsageLimits,
        FunctionCallRecords,
        TaskQueue,
        TriggerTimers,
        TaskGuards,
        DelayTasksService,
        CronTasksService,
        CronMetrics,
        TaskClaims,
        TaskRunner,
        FireService,
        FireJob,
        CronReconcileService,
        ReconcileService,
        SchedulerLifecycle,
        SchedulerHandler,
        TaskFunctions,
        TaskFunctionsHandler,
      ],
    };
  }
}

/**
 * Gathers for 500 ms instead of the route's default: creating a task is rare and not
 * latency-bound, and a task refused because a busy provider answered late is worse than a wait.
 */
function catalog(bus: Bus): FunctionCatalog {
  const functions = new FunctionCatalog(bus, { gatherMs: 500 });
  functions.start();
  return functions;
}
