import type {
  AgentRunReply,
  ChatEvent,
  ErrorBody,
  FinishReason,
  PendingApproval,
  Plan,
  Usage,
} from '@app/client';

/** What a turn shows, in the order it happened. */
export type TurnItem =
  | { kind: 'thought'; step: number; text: string }
  /** What else the run told: a message added to it mid-run, a takeover by another executor. */
  | { kind: 'note'; text: string }
  | {
      kind: 'tool';
      step: number;
      index: number;
      name: string;
      args: Record<string, unknown>;
      status?: 'success' | 'error';
      result?: unknown;
      error?: ErrorBody;
      elapsed_ms?: number;
    };

/** One chat turn as its events arrive. */
export interface Turn {
  message: string;
  running: boolean;
  run_id?: string;
  session_id?: string;
  items: TurnItem[];
  /** The answer so far: the joined `delta`s, then the final reply. */
  answer: string;
  plan?: Plan;
  /** The function calls held for a decision (`needs_approval`), while the run waits on them. */
  held: PendingApproval[];
  finish_reason?: FinishReason;
  usage?: Usage;
  error?: ErrorBody;
}

export function startTurn(message: string): Turn {
  return { message, running: true, items: [], answer: '', held: [] };
}

/** Folds one SSE event of `chatStream` (or of a decision's stream) into the turn; never mutates it. */
export function reduceTurn(turn: Turn, event: ChatEvent): Turn {
  switch (event.type) {
    case 'run_start':
      return { ...turn, run_id: event.data.run_id, session_id: event.data.session_id, running: true };
    case 'thought':
      return {
        ...turn,
        items: [...turn.items, { kind: 'thought', step: event.data.step, text: event.data.text }],
      };
    case 'tool_call':
      return {
        ...turn,
        items: [
          ...turn.items,
          {
            kind: 'tool',
            step: event.data.step,
            index: event.data.index,
            name: event.data.name,
            args: event.data.args,
          },
        ],
      };
    case 'tool_result': {
      const { step, index, status, result, error, elapsed_ms, name } = event.data;
      const at = turn.items.findIndex((i) => i.kind === 'tool' && i.step === step && i.index === index);
      const done: TurnItem = { kind: 'tool', step, index, name, args: {}, status, result, error, elapsed_ms };
      if (at < 0) return { ...turn, items: [...turn.items, done] };
      const items = turn.items.slice();
      items[at] = {
        ...(items[at] as Extract<TurnItem, { kind: 'tool' }>),
        status,
        result,
        error,
        elapsed_ms,
      };
      return { ...turn, items };
    }
    case 'plan':
      return { ...turn, plan: event.data };
    case 'step': {
      if (!turn.plan) return turn;
      const steps = turn.plan.steps.map((s) => (s.index === event.data.index ? event.data : s));
      return { ...turn, plan: { ...turn.plan, steps } };
    }
    case 'user_message':
      return note(turn, `Message added at step ${event.data.step}: ${event.data.text}`);
    case 'run_resumed':
      return note(turn, `Resumed on another executor at step ${event.data.step}`);
    case 'approval_required':
      return { ...turn, held: [...turn.held.filter((c) => c.call_id !== event.data.call_id), event.data] };
    case 'delta':
      return { ...turn, answer: turn.answer + event.data.text };
    case 'run_end':
      return {
        ...turn,
        running: false,
        held: heldAtEnd(turn, event.data),
        run_id: event.data.run_id,
        session_id: event.data.session_id,
        answer: event.data.reply || turn.answer,
        finish_reason: event.data.finish_reason,
        usage: event.data.usage,
        ...(event.data.error ? { error: event.data.error } : {}),
      };
    case 'error':
      return { ...turn, running: false, error: event.data.error };
    default:
      return turn;
  }
}

function note(turn: Turn, text: string): Turn {
  return { ...turn, items: [...turn.items, { kind: 'note', text }] };
}

/** The reply's `approvals` are the calls still waiting; a run that stopped otherwise holds none. */
function heldAtEnd(turn: Turn, reply: AgentRunReply): PendingApproval[] {
  if (reply.approvals) return reply.approvals;
  return reply.finish_reason === 'awaiting_approval' ? turn.held : [];
}

/** A turn whose run goes on after a decision: what the run says next replaces the waiting reply. */
export function resumeTurn(turn: Turn): Turn {
  return { ...turn, running: true, answer: '', error: undefined };
}

/** A turn the stream left without an end (a refused request, a dropped connection). */
export function failTurn(turn: Turn, error: ErrorBody): Turn {
  return { ...turn, running: false, error };
}

const awaitingApproval = (turn: Turn): boolean =>
  !turn.running && turn.finish_reason === 'awaiting_approval' && !!turn.run_id;

/** The calls a stopped turn waits on, each decided on its own. */
export const heldCalls = (turn: Turn): PendingApproval[] => (awaitingApproval(turn) ? turn.held : []);

/** A held plan (no held call) leaves its turn waiting for the plan's Approve / Reject. */
export const awaitingPlanApproval = (turn: Turn): boolean =>
  awaitingApproval(turn) && !!turn.plan && turn.held.length === 0;
