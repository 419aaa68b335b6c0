import type { FunctionDefinition } from '@app/contracts';
import { Agent } from '../agent';
import { type AgentDefinition, defineAgent } from '../agent-definition';
import type { RuntimeOptions } from '../runtime';
import { AgentRuntime } from '../runtime';
import { InMemoryFunctions } from './in-memory-functions';
import { type ScriptedReply, ScriptedModelClient } from './scripted-model';
import type { CompletionRequest, TokenUsage } from '../model/model-client';
import { promptTokensOf } from '../model/prompt-estimate';

export function numberFunction(name: string, description = `The ${name} of a and b.`): FunctionDefinition {
  return {
    name,
    description,
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
  };
}

/** `add` and `multiply`, served in memory. */
export function arithmetic(): InMemoryFunctions {
  return new InMemoryFunctions()
    .add(numberFunction('add'), ({ a, b }) => ({ data: { sum: (a as number) + (b as number) } }))
    .add(numberFunction('multiply'), ({ a, b }) => ({ data: { product: (a as number) * (b as number) } }));
}

export function nativeCall(id: string, name: string, args: Record<string, unknown>): ScriptedReply {
  return { text: '', toolCalls: [{ id, name, arguments: args }] };
}

export function action(tool: string, args: Record<string, unknown>): string {
  return JSON.stringify({ type: 'action', tool, args });
}

export function finalAnswer(answer: string): string {
  return JSON.stringify({ type: 'final', answer });
}

type Billing = (request: CompletionRequest) => TokenUsage;

/** Bills every call its worst case: the prompt as the engine counts it, and all of `max_tokens`. */
export const worstCaseBilling: Billing = (request) => ({
  prompt_tokens: promptTokensOf(request),
  completion_tokens: request.maxTokens ?? 0,
});

export interface Harness {
  agent: Agent;
  model: ScriptedModelClient;
  functions: InMemoryFunctions;
}

/** An agent on a scripted model and in-memory functions; json-action, every function allowed. */
export function harness(
  replies: ScriptedReply[],
  definition: Partial<AgentDefinition> = {},
  options: Partial<RuntimeOptions> & { functions?: InMemoryFunctions; billing?: Billing } = {},
): Harness {
  const model = new ScriptedModelClient(replies, { billing: options.billing });
  const functions = options.functions ?? arithmetic();
  const runtime = AgentRuntime.create({ ...options, model, functions });
  const agent = new Agent(
    runtime,
    defineAgent({ name: 'test', protocol: 'json-action', allowed_tools: ['*'], ...definition }),
  );
  return { agent, model, functions };
}
