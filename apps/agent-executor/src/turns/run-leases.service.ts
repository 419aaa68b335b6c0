import { Inject, Injectable } from '@nestjs/common';
import type { PlatformConfig } from '@app/config';
import type { RunState } from '@app/agent-core';
import { Logger } from '@app/observability';
import { sleep } from '@app/retry';
import { PLATFORM_CONFIG, SERVICE_INFO, type ServiceInfo } from '@app/runtime';
import { RunJournalStore } from '../journal/run-journal.store';
import { leaseOwnerOf } from '../common/lease-owner';
import { RunLeaseRepository } from '../store/run-lease.repository';
import type { TurnOptions } from '../store/run.repository';

/**
 * The leases of the runs this executor runs. A run is leased to the executor's instance id on its
 * row; one heartbeat statement renews them all. A run of ours found leased by another executor was
 * taken over (our heartbeats did not reach the database in time): it is stopped here without a
 * write or a reply, so only one executor ever ends a run. A stopping executor hands its unfinished
 * runs over the same way, releasing their leases so another executor claims them at once.
 */
@Injectable()
export class RunLeases {
  readonly owner: string;
  private readonly held = new Map<string, RunState>();
  private readonly handedOver = new Set<string>();
  private stopping = false;

  constructor(
    @Inject(RunLeaseRepository) private readonly leases: RunLeaseRepository,
    @Inject(RunJournalStore) private readonly journal: RunJournalStore,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(SERVICE_INFO) info: ServiceInfo,
    @Inject(Logger) private readonly logger: Logger,
  ) {
    this.owner = leaseOwnerOf(info);
  }

  /** A new lease, as written with a run's record. */
  lease(now = Date.now()): { owner: string; until: Date } {
    return { owner: this.owner, until: new Date(now + this.config.executor.lease_lapse) };
  }

  /** Whether this executor stopped taking runs over (it is shutting down). */
  get closed(): boolean {
    return this.stopping;
  }

  /** Takes the lease of a run that was not running (a plan approved): nobody else may take it over. */
  acquire(runId: string, options: TurnOptions): Promise<boolean> {
    const { until } = this.lease();
    return this.leases.take(runId, this.owner, until, options);
  }

  hold(run: RunState): void {
    this.held.set(run.runId, run);
  }

  drop(runId: string): void {
    this.held.delete(runId);
  }

  /** True (once) when the run was handed over: its executor must neither record nor answer its end. */
  wasHandedOver(runId: string): boolean {
    return this.handedOver.delete(runId);
  }

  /** Renews every run we hold; stops here those another executor took over meanwhile. */
  async heartbeat(now = Date.now()): Promise<void> {
    const renewed = await this.leases.renew(this.owner, [...this.held.keys()], this.lease(now).until);
    if (renewed >= this.held.size) return;
    for (const runId of await this.leases.lostBy(this.owner, [...this.held.keys()])) {
      this.logger.warn('a run of ours was taken over by another executor; stopping it here', {
        run_id: runId,
      });
      this.handOver(runId);
    }
  }

  /**
   * Stops taking runs over, lets the runs in flight finish until `deadline`, then hands the rest
   * over (stopped here, leases released): another executor claims them at its next sweep.
   */
  async stop(deadline: number): Promise<void> {
    this.stopping = true;
    while (this.held.size > 0 && Date.now() < deadline) await sleep(Math.min(100, deadline - Date.now()));
    const left = [...this.held.keys()];
    if (left.length === 0) return;
    for (const runId of left) this.handOver(runId);
    await this.leases.release(this.owner, left, new Date()).catch((err: unknown) =>
      this.logger.warn('could not release the leases of the runs handed over', {
        error: (err as Error).message,
      }),
    );
    this.logger.info('stopping: runs handed over to another executor', { count: left.length });
  }

  private handOver(runId: string): void {
    const run = this.held.get(runId);
    if (!run) return;
    this.handedOver.add(runId);
    this.journal.abandon(runId);
    run.abort('cancelled');
  }
}
