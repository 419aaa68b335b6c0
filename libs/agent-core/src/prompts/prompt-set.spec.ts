import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type FunctionDefinition,
  type Plan,
  PROMPT_TEMPLATE_NAMES,
  type PromptTemplateName,
} from '@app/contracts';
import { buildSystemPrompt } from '@app/protocol';
import { finalAnswer, harness } from '../testing/fixtures.fixture';
import { InMemoryFunctions } from '../testing/in-memory-functions';
import { type AgentDefinition, DEFAULT_SYSTEM_PROMPT, defineAgent } from '../agent-definition';
import { describePlan, planningPrompt, replanRequest, summaryRequest } from '../strategies/plan-prompt';
import { PromptSet, renderTemplate } from './prompt-set';
import type { PromptTemplates } from './templates';
import { ENGLISH_TEMPLATES } from './templates.en';
import { CHINESE_TEMPLATES } from './templates.zh';

const PLAN_FORMAT =
  '{"steps":[{"description":"what the step does","tool":"function_name","params":{"name":"value"}}]}';
const agent = defineAgent({ name: 'planner', system_prompt: 'Be brief.', max_steps: 4 });
const english = new PromptSet(agent);

const plan: Plan = {
  revision: 0,
  steps: [
    { index: 0, description: 'Add', tool: 'add', params: { a: 1 }, status: 'completed', result: { data: 1 } },
    { index: 1, description: '', tool: 'multiply', params: { a: 2 }, status: 'failed', error: 'boom' },
  ],
};

describe('the English templates write the prompts as they were written before they were templates', () => {
  it('planning', () => {
    expect(planningPrompt(english, agent, [])).toBe(
      `Be brief.\n\n## Planning\nWrite a plan for the user's request. Reply with one JSON object and nothing else:\n${PLAN_FORMAT}\nEach step calls one function with literal parameter values; the steps run in order; at most 4 steps. If no function is needed, reply {"steps":[]}.\n\n## Functions\n(none)`,
    );
  });

  it('replan, summary and approval', () => {
    expect(replanRequest(english, plan, plan.steps[1])).toBe(
      `Step 2 (multiply) failed: boom.\nCompleted so far:\n- step 1 (add) succeeded: {"data":1}\nWrite the steps that remain to be done, in the same JSON format: ${PLAN_FORMAT}`,
    );
    expect(summaryRequest(english, ['<r1/>', '<r2/>'])).toBe(
      "The plan has been carried out. The results of its steps:\n<r1/>\n<r2/>\nNow answer the user's request from these results. Do not call functions.",
    );
    expect(summaryRequest(english, [])).toBe(
      "The plan has been carried out. The results of its steps:\nNow answer the user's request from these results. Do not call functions.",
    );
    expect(describePlan(english, plan)).toBe(
      'The plan is waiting for approval:\n1. Add (add {"a":1})\n2. multiply (multiply {"a":2})',
    );
  });

  it('repair and history summary', () => {
    expect(english.render('repair_tool_arguments', { error: 'bad JSON' })).toBe(
      'Your reply could not be read: bad JSON. Call the function again with a JSON object as its arguments.',
    );
    expect(english.render('history_summary_message', { summary: 'S' })).toBe(
      'Summary of the earlier conversation:\nS',
    );
  });
});

describe('PromptSet', () => {
  it('ships Chinese templates, chosen by language', () => {
    const chinese = new PromptSet({ ...agent, language: 'zh' });
    expect(chinese.render('plan_awaiting_approval')).toBe('计划正在等待批准：');
    expect(planningPrompt(chinese, agent, [])).toContain('最多 4 步');
  });

  it('lets a definition replace a template', () => {
    const custom = new PromptSet({
      ...agent,
      prompts: { summary_request: 'Results:\n{observations}\nAnswer.' },
    });
    expect(summaryRequest(custom, ['x'])).toBe('Results:\nx\nAnswer.');
    expect(custom.render('plan_awaiting_approval')).toBe('The plan is waiting for approval:');
  });

  it('substitutes only the given variables, once, leaving JSON braces alone', () => {
    expect(renderTemplate('{a} {"b":1} {c}', { a: '{c}' })).toBe('{c} {"b":1} {c}');
  });
});

describe('the ReAct system prompt', () => {
  const add: FunctionDefinition = {
    name: 'add',
    description: 'Adds.',
    parameters: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
  };

  it('is, in English, the protocol’s own prompt, for both text protocols', async () => {
    for (const protocol of ['xml-toon', 'json-action'] as const) {
      const functions = new InMemoryFunctions().add(add, () => ({}));
      const { agent, model } = harness(
        [finalAnswer('ok')],
        { protocol, system_prompt: 'Be brief.' },
        { functions },
      );
      await agent.run('hi');
      expect(model.requests[0].messages[0].content).toBe(
        buildSystemPrompt({ functions: [add], protocol, instructions: 'Be brief.' }),
      );
    }
  });

  it('is written in the agent’s language', async () => {
    const { agent, model } = harness([finalAnswer('ok')], { protocol: 'json-action', language: 'zh' });
    await agent.run('hi');
    expect(model.requests[0].messages[0].content).toContain('## 调用函数\n只回复一个 JSON 对象');
  });
});

describe('the repair turns', () => {
  const repairOf = async (definition: Partial<AgentDefinition>) => {
    const { agent, model } = harness(['no call here <call', finalAnswer('ok')], definition);
    await agent.run('hi');
    return model.requests[1].messages.at(-1)?.content;
  };
  const planRepairOf = async (definition: Partial<AgentDefinition>) => {
    const { agent, model } = harness(['no plan', '{"steps":[]}', 'ok'], { mode: 'plan', ...definition });
    await agent.run('hi');
    return model.requests[1].messages.at(-1)?.content;
  };

  it('are, in English, the text they were before they were templates', async () => {
    expect(await repairOf({ protocol: 'xml-toon' })).toBe(
      'Your reply could not be read: a <call> tag is malformed; write <call name="function_name">. Write each call as <call name="function_name">, then one param: value line per parameter, then </call>; to answer the user, reply without <call>.',
    );
    expect(await repairOf({ protocol: 'json-action' })).toBe(
      'Your reply could not be read: it contains no JSON object. Reply with exactly one JSON object: {"type":"action","tool":"function_name","args":{...}} or {"type":"final","answer":"..."}.',
    );
    expect(await planRepairOf({})).toBe(
      'Your plan could not be read: it contains no JSON object. Reply with one JSON object: {"steps":[{"description":"..","tool":"function_name","params":{..}}]}.',
    );
  });

  it('are written in the agent’s language', async () => {
    expect(await repairOf({ protocol: 'xml-toon', language: 'zh' })).toMatch(
      /^无法读取你的回复：a <call> tag/,
    );
    expect(await repairOf({ protocol: 'json-action', language: 'zh' })).toBe(
      '无法读取你的回复：it contains no JSON object。只回复一个 JSON 对象：{"type":"action","tool":"function_name","args":{...}} 或 {"type":"final","answer":"..."}。',
    );
    expect(await planRepairOf({ language: 'zh' })).toMatch(/^无法读取你的计划：it contains no JSON object。/);
  });

  it('follow a definition’s own template', async () => {
    const prompts = { repair_reply_json_action: 'Unreadable ({error}); try again.' };
    expect(await repairOf({ prompts })).toBe('Unreadable (it contains no JSON object); try again.');
  });
});

describe('the system template', () => {
  it('is the instructions of an agent defined without any, in its language or as replaced', () => {
    expect(defineAgent({ name: 'a' }).system_prompt).toBe(DEFAULT_SYSTEM_PROMPT);
    expect(defineAgent({ name: 'a', language: 'zh' }).system_prompt).toMatch(/^你是一个乐于助人的助手/);
    expect(defineAgent({ name: 'a', prompts: { system: 'Be terse.' } }).system_prompt).toBe('Be terse.');
    expect(defineAgent({ name: 'a', language: 'zh', system_prompt: 'Own.' }).system_prompt).toBe('Own.');
  });
});

describe('the template names a profile may override', () => {
  it("are the engine's templates, each shipped in every language", () => {
    expectTypeOf<keyof PromptTemplates>().toEqualTypeOf<PromptTemplateName>();
    const names = [...PROMPT_TEMPLATE_NAMES].sort();
    expect(Object.keys(ENGLISH_TEMPLATES).sort()).toEqual(names);
    expect(Object.keys(CHINESE_TEMPLATES).sort()).toEqual(names);
  });
});
