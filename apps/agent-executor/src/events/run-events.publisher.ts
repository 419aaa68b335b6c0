import { Inject, Injectable } from '@nestjs/common';
import type { EventSink, RunEvent } from '@app/agent-core';
import { Bus } from '@app/bus';
import { Events, type RunResumedEvent } from '@app/contracts';

/** The run engine's event sink for a streaming run: each event on `agent.events.<runId>`, in order. */
@Injectable()
export class RunEventsPublisher implements EventSink {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  emit(event: RunEvent): void {
    this.bus.publish(Events.agentEvents(event.run_id), event);
  }

  /** Tells every gateway that a run was taken over: those waiting on its lost reply follow it instead. */
  announceResumed(event: RunResumedEvent): void {
    this.bus.publish(Events.agentRunResumed, event);
  }
}
