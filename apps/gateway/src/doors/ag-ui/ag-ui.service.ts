import { Inject, Injectable } from '@nestjs/common';
import type { AgUiRunInput } from '@app/contracts';
import { type Caller, ChatService, runIdFor } from '../../chat/chat.service';
import type { RunEvents } from '../../chat/run-events';
import { RunsService } from '../../runs/runs.service';
import { toAgUiTurn } from './ag-ui-request';
import { AgUiEvents } from './ag-ui-events';

/**
 * AG-UI over the platform's runs: an AG-UI run is a turn of a platform run (the same limits,
 * quota and run path as `POST /api/v1/chat`); frontend tools are the caller's tools, whose results
 * carry the same platform run on; interrupts are calls held for approval, resumed by decision.
 */
@Injectable()
export class AgUiService {
  constructor(
    @Inject(ChatService) private readonly chat: ChatService,
    @Inject(RunsService) private readonly runs: RunsService,
  ) {}

  async run(
    input: AgUiRunInput,
    agent: string | undefined,
    caller: Caller,
    signal?: AbortSignal,
  ): Promise<{ events: RunEvents; format: AgUiEvents }> {
    const format = new AgUiEvents(input);
    const turn = toAgUiTurn(input, agent);
    if (turn.kind === 'resume') {
      const last = turn.decisions.at(-1)!;
      for (const decision of turn.decisions.slice(0, -1))
        await this.runs.approve(turn.runId, caller, decision);
      return { events: this.runs.approveStream(turn.runId, caller, last), format };
    }
    const run = { ...turn.run, run_id: runIdFor(turn.run) };
    return { events: this.chat.streamTurn(run, caller, signal), format };
  }
}
