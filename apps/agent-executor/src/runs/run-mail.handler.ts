import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import { Routes } from '@app/contracts';
import { RunLeases } from '../turns/run-leases.service';
import { RunsInFlight } from '../turns/runs-in-flight';

/**
 * NATS in: interrupts and messages for the runs this executor holds, on subjects of its own
 * instance (the `lease_owner` of those runs), one subscription each for all its runs.
 */
@Injectable()
export class RunMailHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(RunsInFlight) private readonly runs: RunsInFlight,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve(Routes.agentRunInterrupt(this.leases.owner), (r) => this.runs.interrupt(r.run_id));
    this.bus.serve(Routes.agentRunInbox(this.leases.owner), (r) =>
      Promise.resolve(this.runs.post(r.run_id, r.message, r.decision)),
    );
  }
}
