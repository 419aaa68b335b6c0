import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import { Logger } from '@app/observability';
import { PLATFORM_CONFIG } from '@app/runtime';
import { RunLeases } from '../turns/run-leases.service';
import { RunTakeoverService } from './run-takeover.service';
import { ToolApprovalService } from '../approvals/tool-approval.service';

/** Of the shutdown timeout, what runs in flight may use before they are handed over. */
const FINISH_SHARE = 0.6;

/**
 * Every heartbeat (with jitter, so executors started together do not sweep in step): renews this
 * executor's leases, claims and carries on the runs whose lease lapsed, then applies the default
 * decision of calls held for approval past their timeout. On shutdown it stops
 * claiming and hands over the runs that cannot finish in time.
 */
@Injectable()
export class LeaseSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(RunTakeoverService) private readonly takeover: RunTakeoverService,
    @Inject(ToolApprovalService) private readonly approvals: ToolApprovalService,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.leases.stop(Date.now() + this.config.shutdown.timeout * FINISH_SHARE);
  }

  /** One heartbeat: renew ours, take over the lapsed, decide the expired approvals. */
  async beat(now = Date.now()): Promise<void> {
    try {
      await this.leases.heartbeat(now);
      if (!this.stopped) await this.takeover.sweep(new Date(now));
      if (!this.stopped) await this.approvals.expire(new Date(now));
    } catch (err) {
      this.logger.warn('the lease heartbeat failed; it runs again', { error: (err as Error).message });
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    const every = this.config.executor.lease_heartbeat;
    const delay = every * (0.75 + Math.random() * 0.25);
    this.timer = setTimeout(() => void this.beat().finally(() => this.schedule()), delay).unref();
  }
}
