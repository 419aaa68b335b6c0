import { randomUUID } from 'node:crypto';
import { type Part, Role, type StreamResponse, TaskState, type Task, type Message } from '@a2a-js/sdk';
import type { AgentEvent, AgentRunReply, FinishReason, PendingApproval, RunView } from '@app/contracts';
import { hasAnswered, replyFromRun } from '../../chat/stored-run-reply';
import { heldCallId } from '../held-call-id';

const STATES: Record<FinishReason, TaskState> = {
  final: TaskState.TASK_STATE_COMPLETED,
  client_tool_calls: TaskState.TASK_STATE_INPUT_REQUIRED,
  awaiting_approval: TaskState.TASK_STATE_INPUT_REQUIRED,
  rejected: TaskState.TASK_STATE_REJECTED,
  cancelled: TaskState.TASK_STATE_CANCELED,
  max_steps: TaskState.TASK_STATE_FAILED,
  max_tool_calls: TaskState.TASK_STATE_FAILED,
  budget: TaskState.TASK_STATE_FAILED,
  timeout: TaskState.TASK_STATE_FAILED,
  parse_error: TaskState.TASK_STATE_FAILED,
  error: TaskState.TASK_STATE_FAILED,
};

export const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

const dataPart = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});

export function agentMessage(runId: string, sessionId: string, parts: Part[]): Message {
  return {
    messageId: randomUUID(),
    contextId: sessionId,
    taskId: runId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/**
 * What a task waiting for its caller asks: each call held for approval (answer with a data part
 * `{"approve": true}` or `{"approve": false, "reason": …}`, naming `id` when several are held).
 */
function heldParts(held: PendingApproval[]): Part[] {
  return held.map((call) =>
    dataPart({
      kind: 'approval_request',
      id: heldCallId(call.call_id, call.hash),
      function: call.function,
      arguments: call.arguments,
      expires_at: call.expires_at,
    }),
  );
}

/** A platform run's reply as an A2A task: the answer as an artifact, a held call as `input-required`. */
export function taskOf(reply: AgentRunReply, input?: Message): Task {
  const state = STATES[reply.finish_reason];
  const waiting = reply.finish_reason === 'awaiting_approval' ? heldParts(reply.approvals ?? []) : [];
  const text = reply.error?.message ?? reply.reply;
  const message = agentMessage(reply.run_id, reply.session_id, [
    ...(text ? [textPart(text)] : []),
    ...waiting,
  ]);
  return {
    id: reply.run_id,
    contextId: reply.session_id,
    status: { state, message, timestamp: new Date().toISOString() },
    artifacts:
      state === TaskState.TASK_STATE_COMPLETED && reply.reply
        ? [
            {
              artifactId: `${reply.run_id}_answer`,
              name: 'answer',
              description: '',
              parts: [textPart(reply.reply)],
              metadata: undefined,
              extensions: [],
            },
          ]
        : [],
    history: input ? [input, message] : [message],
    metadata: {
      agentchassis: {
        run_id: reply.run_id,
        session_id: reply.session_id,
        finish_reason: reply.finish_reason,
        usage: reply.usage,
      },
    },
  };
}

/** A stored run as a task (`GetTask`): working until it has answered. */
export function taskOfRun(run: RunView): Task {
  if (hasAnswered(run)) return taskOf(replyFromRun(run), userMessage(run));
  return {
    id: run.id,
    contextId: run.session_id ?? '',
    status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: run.created_at },
    artifacts: [],
    history: [userMessage(run)],
    metadata: { agentchassis: { run_id: run.id, session_id: run.session_id } },
  };
}

function userMessage(run: RunView): Message {
  return { ...agentMessage(run.id, run.session_id ?? '', [textPart(run.input)]), role: Role.ROLE_USER };
}

/**
 * A run's events as A2A stream responses: the task (working) when it starts, a status update with
 * each step's text before its calls, then the task's end as `taskOf` shows it (its artifact, and a
 * final status update).
 */
export function streamResponsesOf(event: AgentEvent, input: Message): StreamResponse[] {
  switch (event.type) {
    case 'run_start':
    case 'run_resumed': {
      const sessionId = (event.data as { session_id?: string }).session_id ?? input.contextId;
      const task: Task = {
        id: event.run_id,
        contextId: sessionId,
        status: {
          state: TaskState.TASK_STATE_WORKING,
          message: undefined,
          timestamp: new Date().toISOString(),
        },
        artifacts: [],
        history: [{ ...input, taskId: event.run_id, contextId: sessionId }],
        metadata: undefined,
      };
      return [{ payload: { $case: 'task', value: task } }];
    }
    case 'thought': {
      const { text } = event.data as { text: string };
      return [
        status(
          event.run_id,
          input.contextId,
          TaskState.TASK_STATE_WORKING,
          agentMessage(event.run_id, input.contextId, [textPart(text)]),
        ),
      ];
    }
    case 'run_end': {
      const task = taskOf(event.data as AgentRunReply);
      const artifacts = task.artifacts.map((artifact): StreamResponse => ({
        payload: {
          $case: 'artifactUpdate',
          value: {
            taskId: task.id,
            contextId: task.contextId,
            artifact,
            append: false,
            lastChunk: true,
            metadata: undefined,
          },
        },
      }));
      return [
        ...artifacts,
        status(task.id, task.contextId, task.status!.state, task.status!.message, task.metadata),
      ];
    }
    default:
      return [];
  }
}

function status(
  taskId: string,
  contextId: string,
  state: TaskState,
  message: Message | undefined,
  metadata?: Record<string, unknown>,
): StreamResponse {
  return {
    payload: {
      $case: 'statusUpdate',
      value: { taskId, contextId, status: { state, message, timestamp: new Date().toISOString() }, metadata },
    },
  };
}
