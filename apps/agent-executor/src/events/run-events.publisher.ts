import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { type AgentEvent, type AgentEventData, type AgentEventType, Subjects } from '@app/contracts';
import type { RunState } from '../runs/run-state';

/** Publishes a streaming run's events on `agent.events.<runId>`, numbered in order. */
@Injectable()
export class RunEventsPublisher {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  emit<T extends AgentEventType>(run: RunState, type: T, data: AgentEventData[T]): void {
    if (!run.identity.stream) return;
    const event: AgentEvent = { type, run_id: run.runId, seq: run.nextSeq(), data };
    this.bus.publish(Subjects.agentEvents(run.runId), event);
  }
}
