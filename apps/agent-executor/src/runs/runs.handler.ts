import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { answer, type Answer, BusHandler } from '@app/runtime';
import { Routes } from '@app/contracts';
import { PlanApprovalService } from '../turns/plan-approval.service';
import { ToolApprovalService } from '../approvals/tool-approval.service';
import { AgentTurnService } from '../turns/agent-turn.service';
import { RunControlService } from './run-control.service';

/** NATS in: a conversation turn; listing runs; a run's view, cancel, approve (a plan, or a held call's decision) and reject. */
@Injectable()
export class RunsHandler extends BusHandler {
  constructor(
    @Inject(Bus) protected readonly bus: Bus,
    @Inject(AgentTurnService) private readonly turns: AgentTurnService,
    @Inject(RunControlService) private readonly control: RunControlService,
    @Inject(PlanApprovalService) private readonly approval: PlanApprovalService,
    @Inject(ToolApprovalService) private readonly tools: ToolApprovalService,
  ) {
    super();
  }

  protected answers(): Answer[] {
    return [
      answer(Routes.agentRun, (r) => this.turns.run(r)),
      answer(Routes.agentRunList, ({ principal, ...query }) => this.control.list(query, principal)),
      answer(Routes.agentRunGet, (r) => this.control.view(r.run_id, r.principal)),
      answer(Routes.agentRunCancel, (r) => this.control.cancel(r.run_id, r.principal)),
      answer(Routes.agentRunReject, (r) => this.approval.reject(r.run_id, r.principal, r)),
      answer(Routes.agentRunApprove, (r) =>
        r.decision
          ? this.tools.decide(r.run_id, r.decision, r.principal, r.stream)
          : this.approval.approve(r.run_id, r.principal, r.stream, r.scopes, r),
      ),
    ];
  }
}
