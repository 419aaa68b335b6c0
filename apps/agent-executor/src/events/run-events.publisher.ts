import { Inject, Injectable } from '@nestjs/common';
import type { EventSink, RunEvent } from '@app/agent-core';
import { Bus } from '@app/bus';
import { Subjects } from '@app/contracts';

/** The run engine's event sink for a streaming run: each event on `agent.events.<runId>`, in order. */
@Injectable()
export class RunEventsPublisher implements EventSink {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  emit(event: RunEvent): void {
    this.bus.publish(Subjects.agentEvents(event.run_id), event);
  }
}
