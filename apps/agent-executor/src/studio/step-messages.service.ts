import { Inject, Injectable } from '@nestjs/common';
import {
  type CompletionRequest,
  type Functions,
  JSON_PLAN_PARSER,
  type JournalEntry,
  JournalReplay,
  type ModelClient,
  type ModelStepEntry,
  PromptSet,
  resumeFromJournal,
  type RunContext,
  RunState,
  runStrategy,
} from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import { ConflictError, NotFoundError, type StepMessagesView } from '@app/contracts';
import { Redactor } from '@app/observability';
import { PLATFORM_CONFIG } from '@app/runtime';
import { type AgentProfile, modelNameOf, withInstructions } from '../agents/agent-profile';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { requireOwner } from '../common/ownership';
import { RunJournalStore } from '../journal/run-journal.store';
import { type RunRecord, RunRepository } from '../store/run.repository';
import { SessionRepository } from '../store/session.repository';
import { ExecutorRuntimeService } from '../turns/executor-runtime.service';
import { appliedDecisions } from '../turns/held-calls';
import { promptView } from './prompt-parts';
import { historyBefore, historyMessages } from './run-history';

/** Thrown by the capturing model: the step asked for is captured, nothing more is run. */
class Captured extends Error {}

/**
 * What one model step of a run sent and got back, rebuilt by the code that built it: the run's
 * strategy runs again from the top on its journal (every earlier model step and call answered
 * from it, nothing sent to a model or a function), with the session's history as the run read it,
 * and the request of step `step` is captured as it would be sent. The reply is the journal's. It
 * is as exact as the agent's profile and the function catalogue are the run's: both are today's.
 */
@Injectable()
export class StepMessagesService {
  private readonly redactor: Redactor;

  constructor(
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(RunJournalStore) private readonly journal: RunJournalStore,
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(ExecutorRuntimeService) private readonly runtimes: ExecutorRuntimeService,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {
    this.redactor = new Redactor(config.secrets);
  }

  async view(runId: string, step: number, principal?: string): Promise<StepMessagesView> {
    const record = await this.runs.find(runId);
    if (!record) throw new NotFoundError('run', runId);
    requireOwner('run', runId, record.owner, principal);
    const entries = await this.journal.load(runId);
    const reply = entries.find((e): e is ModelStepEntry => e.kind === 'model_step' && e.step === step);
    if (!reply) throw new NotFoundError('model step', `${step} of run ${runId}`);
    const stored = await this.profiles.get(record.agent).catch(() => {
      throw new ConflictError(`agent '${record.agent}' no longer exists: the run's steps cannot be rebuilt`);
    });
    const profile = withInstructions(stored, record.turn_options.instructions);
    const { request, history } = await this.capture(record, profile, entries, step);
    return promptView(
      // the model the platform's client called when the profile names none
      { ...request, model: request.model || modelNameOf(profile, this.config) },
      reply,
      { history, added: entries.flatMap((e) => (e.kind === 'user_message' ? [e.text] : [])) },
      { runId, agent: record.agent, protocol: profile.protocol, instructions: profile.system_prompt },
      (text) => this.redactor.redact(text),
    );
  }

  /** The request of model step `step`, and how many messages of history it starts with. */
  private async capture(
    record: RunRecord,
    profile: AgentProfile,
    entries: JournalEntry[],
    step: number,
  ): Promise<{ request: CompletionRequest; history: number }> {
    const identity = {
      runId: record.id,
      sessionId: record.session_id ?? '',
      principal: record.owner || undefined,
    };
    const definition = this.runtimes.definitionOf(profile);
    const run = new RunState(identity, definition, { timeoutMs: this.config.executor.run_timeout });
    let captured: CompletionRequest | undefined;
    const model: ModelClient = {
      name: 'studio',
      model: profile.model ?? '',
      complete: (request) => {
        captured ??= { ...request, messages: [...request.messages], signal: undefined, onDelta: undefined };
        run.abort('cancelled');
        return Promise.reject(new Captured('captured'));
      },
    };
    const functions = readOnly(this.runtimes.functionsFor(profile, identity));
    const ctx: RunContext = {
      ...resumeFromJournal(
        { run, model, functions, prompts: new PromptSet(definition) },
        new JournalReplay(entries.filter((e) => e.step < step)),
      ),
      approvals: appliedDecisions(record.approvals),
    };
    try {
      const history = historyMessages(ctx, profile, await historyBefore(this.sessions, record));
      await runStrategy(ctx, [...history, { role: 'user', content: record.input }], JSON_PLAN_PARSER);
      if (!captured)
        throw new ConflictError(
          `the run's journal does not lead to model step ${step}: it cannot be rebuilt`,
        );
      return { request: captured, history: history.length };
    } finally {
      run.close();
    }
  }
}

/** The functions as the run saw them listed; a call reaches nothing (a rebuilt step runs no function). */
function readOnly(functions: Functions): Functions {
  return {
    catalogue: () => functions.catalogue(),
    find: (name) => functions.find(name),
    call: async () => ({
      status: 'error',
      error: { code: 'cancelled', message: 'not run: the step is being rebuilt' },
    }),
  };
}
