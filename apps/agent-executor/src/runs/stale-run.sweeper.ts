import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import { Logger } from '@app/observability';
import { PLATFORM_CONFIG } from '@app/runtime';
import { RunRepository } from '../store/run.repository';

const SWEEP_EVERY_MS = 60_000;
/** Executors' clocks differ; a live run must never look stale because of that. */
const CLOCK_SLACK_MS = 60_000;
export const STALE_RUN_ERROR = 'its executor stopped before the run ended';

/**
 * A run recorded without a lease (before leases existed) whose executor died mid-turn would stay
 * `running` forever; leased runs are taken over instead (`LeaseSweeper`). No live run goes a whole
 * run timeout without a write (its deadline ends it first), so every executor periodically marks
 * older unleased `running` records failed. Idempotent: several executors sweeping at once is harmless.
 */
@Injectable()
export class StaleRunSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async sweep(now = Date.now()): Promise<number> {
    const staleBefore = new Date(now - this.config.executor.run_timeout - CLOCK_SLACK_MS);
    try {
      const count = await this.runs.failStale(staleBefore, STALE_RUN_ERROR);
      if (count > 0) this.logger.warn('runs left running by a stopped executor marked failed', { count });
      return count;
    } catch (err) {
      this.logger.warn('the stale-run sweep failed; it will run again', { error: (err as Error).message });
      return 0;
    }
  }
}
