import {
  type CreateCronRequest,
  type CreateDelayRequest,
  type FieldError,
  InvalidParamsError,
  ISO_RULE,
  isoInstant,
  isoProblem,
  JSON_PARAMS_RULE,
  parseTaskParams,
} from '@app/contracts';
import { cronProblems, normaliseCron, nextDue } from '../domain/cron-schedule';
import type { NewCronTask, NewDelayTask, TaskTargetSpec } from '../domain/task';

type TargetFields = Pick<CreateDelayRequest, 'function' | 'params' | 'message' | 'agent' | 'session_id'>;

/**
 * A guard against a model's slip of the year (BullMQ's delayed-job scores also lose precision
 * for times after 2039).
 */
const MAX_DELAY_MS = 10 * 365.25 * 86_400_000;

/**
 * The checks a JSON Schema cannot make (a real instant, params that parse, several fields at
 * once, the clock), all reported at once: for a scheduler function call, checked by its schema
 * alone, and for a REST body alike.
 */
export function delayInput(req: CreateDelayRequest, now: Date): NewDelayTask {
  const problems = targetProblems(req);
  const runAt = isoInstant(req.run_at);
  if (!runAt) {
    problems.push({ field: 'run_at', message: isoProblem(req.run_at) ?? ISO_RULE });
  } else if (runAt.getTime() <= now.getTime()) {
    problems.push({
      field: 'run_at',
      message: `is in the past (it is now ${now.toISOString()}); give a future time`,
    });
  } else if (runAt.getTime() - now.getTime() > MAX_DELAY_MS) {
    problems.push({ field: 'run_at', message: 'is more than 10 years ahead; give a nearer time' });
  }
  throwIfAny(problems);
  return {
    ...target(req),
    name: req.name,
    owner: req.owner ?? '',
    key_id: req.key_id ?? null,
    run_at: runAt!,
    misfire_policy: req.misfire_policy ?? 'missed',
  };
}

export function cronInput(req: CreateCronRequest, now: Date, minIntervalMs: number): NewCronTask {
  const spec = { expr: normaliseCron(req.cron_expr), timezone: req.timezone ?? 'UTC' };
  const problems = [...targetProblems(req), ...cronProblems(spec, minIntervalMs, now)];
  const until = req.until ? (isoInstant(req.until) ?? null) : null;
  if (req.until && !until) problems.push({ field: 'until', message: isoProblem(req.until) ?? ISO_RULE });
  const first = problems.some((p) => p.field === 'cron_expr' || p.field === 'timezone')
    ? undefined
    : nextDue(spec, now);
  if (until && until.getTime() <= now.getTime()) {
    problems.push({
      field: 'until',
      message: `is in the past (it is now ${now.toISOString()}); the task would never run`,
    });
  } else if (until && first && first >= until) {
    problems.push({
      field: 'until',
      message: `comes before the first run (${first.toISOString()}); the task would never run`,
    });
  }
  throwIfAny(problems);
  return {
    ...target(req),
    name: req.name,
    owner: req.owner ?? '',
    key_id: req.key_id ?? null,
    cron_expr: spec.expr,
    timezone: spec.timezone,
    until,
    max_runs: req.max_runs ?? 0,
    next_run_at: first!,
  };
}

function targetProblems(req: TargetFields): FieldError[] {
  const problems: FieldError[] = [];
  if (req.function && req.message) {
    problems.push({
      field: 'message',
      message: 'give either function (with params) or message (an agent turn), not both',
    });
  } else if (!req.function && !req.message) {
    problems.push({ field: 'function', message: 'is required (or message, to run an agent turn instead)' });
  }
  if (req.message && req.params !== undefined)
    problems.push({ field: 'params', message: 'only applies to a function' });
  else if (parseTaskParams(req.params) === undefined)
    problems.push({ field: 'params', message: JSON_PARAMS_RULE });
  return problems;
}

function target(req: TargetFields): TaskTargetSpec {
  if (req.message) {
    return {
      target: 'agent',
      function_name: '',
      params: '{}',
      agent: req.agent ?? null,
      session_id: req.session_id ?? null,
      message: req.message,
    };
  }
  return {
    target: 'function',
    function_name: req.function!,
    params: JSON.stringify(parseTaskParams(req.params)),
    agent: null,
    session_id: null,
    message: null,
  };
}

function throwIfAny(problems: FieldError[]): void {
  if (problems.length > 0) throw new InvalidParamsError(problems);
}
