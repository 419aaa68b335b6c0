import { describe, expect, it } from 'vitest';
import { Agent } from '../agent';
import { defineAgent } from '../agent-definition';
import { AgentRuntime } from '../runtime';
import { arithmetic } from '../testing/fixtures.fixture';
import { ScriptedModelClient } from '../testing/scripted-model';
import type { PlanParser } from './plan-parser';

/** A plan written one step a line: `tool a b`. */
const LINE_PLAN_PARSER: PlanParser = {
  parse(text) {
    const lines = text.split('\n').filter((line) => line.trim());
    const steps = lines.map((line) => line.trim().split(/\s+/));
    const bad = steps.findIndex((words) => words.length !== 3 || words.slice(1).some((n) => isNaN(+n)));
    if (bad >= 0) return { ok: false, error: `line ${bad + 1} is not "tool a b"` };
    return {
      ok: true,
      steps: steps.map(([tool, a, b]) => ({ description: tool, tool, params: { a: +a, b: +b } })),
    };
  },
};

describe('a plan parser given to the runtime', () => {
  it('reads the plans of every plan-mode agent of that runtime; its error goes back in repair_plan', async () => {
    const model = new ScriptedModelClient(['add one two', 'add 1 2\nmultiply 3 4', 'Three and twelve.']);
    const functions = arithmetic();
    const runtime = AgentRuntime.builder()
      .model(model)
      .functions(functions)
      .planParser(LINE_PLAN_PARSER)
      .build();
    const agent = new Agent(runtime, defineAgent({ name: 'lines', mode: 'plan', allowed_tools: ['*'] }));

    const result = await agent.run('compute');

    expect(result).toMatchObject({ finish_reason: 'final', reply: 'Three and twelve.' });
    expect(functions.calls.map((call) => [call.name, call.args])).toEqual([
      ['add', { a: 1, b: 2 }],
      ['multiply', { a: 3, b: 4 }],
    ]);
    expect(model.requests[1].messages.at(-1)?.content).toMatch(
      /^Your plan could not be read: line 1 is not "tool a b"\./,
    );
  });
});
