import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  AgentRunRequest,
  ListRunsRequest,
  parseDto,
  QueueGroups,
  RunApproveRequest,
  RunRefRequest,
  Subjects,
} from '@app/contracts';
import { PlanApprovalService } from '../plans/plan-approval.service';
import { AgentTurnService } from './agent-turn.service';
import { RunControlService } from './run-control.service';

/** NATS in: a conversation turn; listing runs; a run's view, cancel, approve and reject. */
@Injectable()
export class RunsHandler implements OnApplicationBootstrap {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(AgentTurnService) private readonly turns: AgentTurnService,
    @Inject(RunControlService) private readonly control: RunControlService,
    @Inject(PlanApprovalService) private readonly approval: PlanApprovalService,
  ) {}

  onApplicationBootstrap(): void {
    const queue = QueueGroups.executor;
    const byRef = (verb: (runId: string, principal?: string) => Promise<unknown>) => (data: unknown) => {
      const request = parseDto(RunRefRequest, data);
      return verb(request.run_id, request.principal);
    };
    this.bus.serve(Subjects.agentRun, (data) => this.turns.run(parseDto(AgentRunRequest, data)), { queue });
    this.bus.serve(
      Subjects.agentRunList,
      (data) => {
        const { principal, ...query } = parseDto(ListRunsRequest, data);
        return this.control.list(query, principal);
      },
      { queue },
    );
    this.bus.serve(
      Subjects.agentRunGet,
      byRef((id, principal) => this.control.view(id, principal)),
      { queue },
    );
    this.bus.serve(
      Subjects.agentRunCancel,
      byRef((id, principal) => this.control.cancel(id, principal)),
      { queue },
    );
    this.bus.serve(
      Subjects.agentRunReject,
      byRef((id, principal) => this.approval.reject(id, principal)),
      { queue },
    );
    this.bus.serve(
      Subjects.agentRunApprove,
      (data) => {
        const request = parseDto(RunApproveRequest, data);
        return this.approval.approve(request.run_id, request.principal, request.stream, request.scopes);
      },
      { queue },
    );
  }
}
