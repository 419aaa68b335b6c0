import { Body, Controller, Inject, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AgentNotFoundError, AgUiRunInput, NAME_PATTERN, parseDto } from '@app/contracts';
import { AdmitsRun } from '../../auth/admits-run.decorator';
import { CurrentRunCaller } from '../../auth/principal.decorator';
import type { Caller } from '../../chat/chat.service';
import { closedEarly, sendEventStream } from '../../common/event-stream';
import { ApiRoute, type RouteDoc } from '../../common/openapi/api-route.decorator';
import { AgUiService } from './ag-ui.service';

const DOC: RouteDoc = {
  tag: 'ag-ui',
  summary: 'Run an agent as AG-UI events (the default agent, or the one named)',
  description:
    "AG-UI's `RunAgentInput` in; its events out as server-sent events (`data: <event JSON>`): RUN_STARTED, " +
    'STATE_SNAPSHOT (the run and session), text messages, tool calls with their results, RUN_FINISHED (an ' +
    'interrupt per call held for approval: answer with `resume`) or RUN_ERROR. `tools` are frontend tools: ' +
    'their calls end the run and the next run’s `tool` messages carry the same platform run on.',
  body: AgUiRunInput,
  status: 200,
  content: {
    'text/event-stream': { schema: { type: 'string', description: '`data: <AG-UI event JSON>` blocks' } },
  },
  errors: { 409: 'conflict: an interrupt or tool call already answered' },
};

/** AG-UI (`POST /ag-ui`): front ends (CopilotKit and others) stream agent runs in its events. */
@Controller('ag-ui')
export class AgUiController {
  constructor(@Inject(AgUiService) private readonly agUi: AgUiService) {}

  @Post()
  @AdmitsRun()
  @ApiRoute(DOC)
  runDefault(@Body() body: unknown, @CurrentRunCaller() caller: Caller, @Res() res: Response) {
    return this.run(undefined, body, caller, res);
  }

  @Post(':agent')
  @AdmitsRun()
  @ApiRoute(DOC)
  runAgent(
    @Param('agent') agent: string,
    @Body() body: unknown,
    @CurrentRunCaller() caller: Caller,
    @Res() res: Response,
  ) {
    if (!NAME_PATTERN.test(agent)) throw new AgentNotFoundError(agent.slice(0, 64));
    return this.run(agent, body, caller, res);
  }

  private async run(agent: string | undefined, body: unknown, caller: Caller, res: Response): Promise<void> {
    const input = parseDto(AgUiRunInput, body, 'run input', { unknown: 'strip' });
    const { events, format } = await this.agUi.run(input, agent, caller, closedEarly(res));
    return sendEventStream(res, events, format);
  }
}
