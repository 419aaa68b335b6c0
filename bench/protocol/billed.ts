// The corpus as a provider bills it: every scenario run for real, by our embedded SDK (xml-toon) and
// by @openai/agents (JSON function calling), against the scripted model with its prompt cache
// emulated (libs/testing/src/scripted-llm/prompt-cache.ts): real token counts, OpenAI's automatic
// prefix caching in 128-token blocks past 1,024. What each request was billed is read from the
// usage the model reported, as a provider's invoice would be. Needs the build (dist/).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Agent, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import type * as Sdk from '../../libs/agent/src';
import type * as Testing from '../../libs/testing/src';
import { encodeCalls } from '../../libs/protocol/src/index';
import { ROOT } from '../common/processes';
import { FUNCTIONS } from './functions';
import { ANSWER, DEFINITION_BUDGET, INSTRUCTIONS } from './measure';
import type { Scenario, StepResult } from './scenarios';

const load = createRequire(join(ROOT, 'package.json'));
const sdk = load(join(ROOT, 'dist/libs/agent/src/index.js')) as typeof Sdk;
const testing = load(join(ROOT, 'dist/libs/testing/src/index.js')) as typeof Testing;

const MODEL = 'gpt-5.4-mini';

/** One request as the model billed it. */
export interface BilledRequest {
  prompt: number;
  cached: number;
  written: number;
  completion: number;
}

export type Side = 'ours' | 'functionCalling';

export interface BilledScenario {
  name: string;
  kind: Scenario['kind'];
  requests: Record<Side, BilledRequest[]>;
}

/** Runs every scenario on both sides, ours first, each against the same caching model. */
export async function measureBilled(scenarios: Scenario[]): Promise<BilledScenario[]> {
  setTracingDisabled(true);
  const llm = await testing.startScriptedLlm({ promptCache: true, maxRecordedRequests: 100 });
  try {
    const billed: BilledScenario[] = [];
    for (const scenario of scenarios) {
      const ours = await billedRun(llm, () => runOurs(llm.url, scenario), ourScript(scenario));
      const functionCalling = await billedRun(
        llm,
        () => runOpenAiAgents(llm.url, scenario),
        fcScript(scenario),
      );
      billed.push({ name: scenario.name, kind: scenario.kind, requests: { ours, functionCalling } });
    }
    return billed;
  } finally {
    await llm.close();
  }
}

async function billedRun(
  llm: Testing.ScriptedLlm,
  work: () => Promise<void>,
  script: Testing.Script,
): Promise<BilledRequest[]> {
  llm.setScript(script);
  llm.clearRequests();
  await work();
  return llm.requests().map((request) => usageOf(request));
}

/** The usage the model answered a request with: the server records replies' usage with the request. */
function usageOf(request: Testing.RecordedRequest): BilledRequest {
  const usage = request.usage;
  if (!usage) throw new Error(`no usage recorded for ${request.path}`);
  return usage;
}

const ourScript = (scenario: Scenario): Testing.Script => ({
  replies: [...scenario.steps.map((step) => encodeCalls(step.calls)), ANSWER],
});

const fcScript = (scenario: Scenario): Testing.Script => ({
  replies: [
    ...scenario.steps.map((step) => ({
      text: '',
      toolCalls: step.calls.map((call) => ({ name: call.name, arguments: call.params })),
    })),
    ANSWER,
  ],
});

/** What a scenario's functions return: each call's scripted result, found by name and parameters. */
function resultsOf(scenario: Scenario): (name: string, params: Record<string, unknown>) => StepResult {
  const byCall = new Map<string, StepResult>();
  for (const step of scenario.steps)
    step.calls.forEach((call, i) => byCall.set(`${call.name} ${canonical(call.params)}`, step.results[i]));
  return (name, params) => {
    const result = byCall.get(`${name} ${canonical(params)}`);
    if (!result) throw new Error(`${scenario.name}: no result scripted for ${name}(${canonical(params)})`);
    return result;
  };
}

/** Parameters as a key: the defaults a side fills in left out (the scenario's calls give none). */
function canonical(params: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(params).sort(([a], [b]) => a.localeCompare(b))));
}

async function runOurs(llmUrl: string, scenario: Scenario): Promise<void> {
  const results = resultsOf(scenario);
  const agent = sdk.createAgent({
    name: 'ops',
    instructions: INSTRUCTIONS,
    model: sdk.openai({ baseURL: llmUrl, apiKey: 'bench', model: MODEL, maxRetries: 0 }),
    protocol: 'xml-toon',
    functions: FUNCTIONS.map((fn) =>
      sdk.defineFunction({
        name: fn.name,
        description: fn.description,
        parameters: fn.parameters as never,
        execute: async (params: Record<string, unknown>) => {
          const result = results(fn.name, withoutDefaults(fn.name, params));
          if (!result.ok) throw new Error(result.error);
          return result.content;
        },
      }),
    ),
    // every result whole, as JSON function calling sends it
    limits: { observationMaxLen: 10_000_000, maxSteps: 20 },
    definition: { function_definition_budget: DEFINITION_BUDGET },
  });
  const result = await agent.run(scenario.user);
  if (result.reply !== ANSWER)
    throw new Error(`${scenario.name}: ours answered ${JSON.stringify(result.reply)}`);
}

/** Drops the parameters a function's schema defaulted (the model did not write them). */
function withoutDefaults(name: string, params: Record<string, unknown>): Record<string, unknown> {
  const properties = FUNCTIONS.find((fn) => fn.name === name)?.parameters.properties ?? {};
  return Object.fromEntries(
    Object.entries(params).filter(
      ([key, value]) => properties[key]?.default === undefined || value !== properties[key].default,
    ),
  );
}

async function runOpenAiAgents(llmUrl: string, scenario: Scenario): Promise<void> {
  const results = resultsOf(scenario);
  const client = new OpenAI({ baseURL: llmUrl, apiKey: 'bench', maxRetries: 0 });
  const agent = new Agent({
    name: 'ops',
    instructions: INSTRUCTIONS,
    tools: FUNCTIONS.map((fn) =>
      tool({
        name: fn.name,
        description: fn.description,
        parameters: fn.parameters as never,
        strict: false,
        execute: async (input) => {
          const result = results(fn.name, input as Record<string, unknown>);
          return JSON.stringify(result.ok ? result.content : { error: result.error });
        },
      }),
    ),
    model: new OpenAIChatCompletionsModel(client as never, MODEL),
  });
  const output = String((await run(agent, scenario.user, { maxTurns: 20 })).finalOutput);
  if (output !== ANSWER)
    throw new Error(`${scenario.name}: @openai/agents answered ${JSON.stringify(output)}`);
}
