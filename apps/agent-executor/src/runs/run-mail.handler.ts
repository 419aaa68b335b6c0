import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { answer, type Answer, BusHandler } from '@app/runtime';
import { Routes } from '@app/contracts';
import { RunLeases } from '../turns/run-leases.service';
import { RunsInFlight } from '../turns/runs-in-flight';

/**
 * NATS in: interrupts and messages for the runs this executor holds, on subjects of its own
 * instance (the `lease_owner` of those runs), one subscription each for all its runs.
 */
@Injectable()
export class RunMailHandler extends BusHandler {
  constructor(
    @Inject(Bus) protected readonly bus: Bus,
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(RunsInFlight) private readonly runs: RunsInFlight,
  ) {
    super();
  }

  protected answers(): Answer[] {
    return [
      answer(Routes.agentRunInterrupt(this.leases.owner), (r) => this.runs.interrupt(r.run_id)),
      answer(Routes.agentRunInbox(this.leases.owner), (r) =>
        Promise.resolve(this.runs.post(r.run_id, r.message, r.decision)),
      ),
    ];
  }
}
