/**
 * The core's one error hierarchy: a stable `code` and whether the same request may succeed later.
 * Providers throw `ModelError`s (libs/llm's `LlmError` is one); the rest are the run's own.
 */
export class AgentError extends Error {
  override name = 'AgentError';

  constructor(
    readonly code: string,
    message: string,
    private readonly recoverable = false,
  ) {
    super(message);
  }

  /** True when the same request may succeed later. */
  get isRecoverable(): boolean {
    return this.recoverable;
  }
}

const RECOVERABLE_MODEL_CODES: ReadonlySet<string> = new Set([
  'llm_timeout',
  'llm_rate_limited',
  'llm_unavailable',
]);

/** A model call failed; `code` is one of the `llm_*` codes, `status`/`providerCode` the provider's own. */
export class ModelError extends AgentError {
  override name = 'ModelError';

  constructor(
    code: string,
    message: string,
    readonly status?: number,
    readonly providerCode?: string,
  ) {
    super(code, message, RECOVERABLE_MODEL_CODES.has(code));
  }
}

/** A function call failed (reported to the model as the call's error, never thrown through a run). */
export class ToolError extends AgentError {
  override name = 'ToolError';
}

/**
 * A hook whose host chose to stop the run when it fails (the executor's `fail_closed`). Thrown
 * from any hook but `beforeTool` (which denies instead), it ends the run with `error`.
 */
export class HookFailed extends AgentError {
  override name = 'HookFailed';

  constructor(message: string) {
    super('hook_failed', message);
  }
}

/** A plan could not be written, read or carried out. */
export class PlanError extends AgentError {
  override name = 'PlanError';
}

/** A run limit (steps, function calls, tokens, time) stopped the run. */
export class LimitExceeded extends AgentError {
  override name = 'LimitExceeded';
}

/**
 * A model call was not sent: its worst case (the prompt's tokens, `max_tokens` of reply) does not
 * fit in what is left of a USD budget, the run's own (`scope: 'run'`) or its API key's (`'key'`).
 */
export class BudgetRefused extends LimitExceeded {
  override name = 'BudgetRefused';

  constructor(
    readonly scope: 'run' | 'key',
    message: string,
  ) {
    super('budget', message);
  }
}

export class Cancelled extends AgentError {
  override name = 'Cancelled';

  constructor(message = 'the run was cancelled') {
    super('cancelled', message);
  }
}

/** The runtime or an agent definition is incomplete or contradictory. */
export class ConfigurationError extends AgentError {
  override name = 'ConfigurationError';

  constructor(message: string) {
    super('invalid_configuration', message);
  }
}

/** A state transition the run's state machine does not allow. */
export class IllegalTransition extends AgentError {
  override name = 'IllegalTransition';

  constructor(from: string, to: string) {
    super('illegal_transition', `a run cannot go from '${from}' to '${to}'`);
  }
}
