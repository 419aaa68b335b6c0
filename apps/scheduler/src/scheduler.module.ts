import { type DynamicModule, Module } from '@nestjs/common';
import { Bus } from '@app/bus';
import type { PlatformConfig } from '@app/config';
import { FunctionCatalog, FunctionClient } from '@app/functions';
import { PersistenceModule } from '@app/persistence';
import { RedisModule, SERVICE_INFO, type ServiceInfo } from '@app/runtime';
import { SCHEDULER_SETTINGS, schedulerSettings } from './config/scheduler.config';
import { CronMetrics } from './tasks/cron-metrics';
import { CronReconcileService } from './tasks/cron-reconcile.service';
import { CronTaskRepository } from './tasks/cron-task.repository';
import { CronTasksService } from './tasks/cron-tasks.service';
import { DelayTaskRepository } from './tasks/delay-task.repository';
import { DelayTasksService } from './tasks/delay-tasks.service';
import { FireJob } from './tasks/fire.job';
import { FireService } from './tasks/fire.service';
import { ReconcileService } from './tasks/reconcile.service';
import { SchedulerLifecycle } from './tasks/scheduler-lifecycle.service';
import { SchedulerHandler } from './tasks/scheduler.handler';
import { TaskClaims } from './tasks/task-claims.service';
import { FunctionCallRecords } from './tasks/function-call-records.repository';
import { TaskFireRepository } from './tasks/task-fire.repository';
import { TaskFunctions } from './tasks/task-functions';
import { TaskFunctionsHandler } from './tasks/task-functions.handler';
import { TaskGuards } from './tasks/task-guards.service';
import { TaskQueue } from './tasks/task-queue.service';
import { TaskRunner } from './tasks/task-runner.service';
import { TriggerTimers } from './tasks/trigger-timers.service';

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

/** Creating a task is rare and not latency-bound: the catalogue waits longer for busy providers. */
function catalog(bus: Bus): FunctionCatalog {
  const functions = new FunctionCatalog(bus, { gatherMs: 500 });
  functions.start();
  return functions;
}
