import { describe, expect, it } from 'vitest';
import { defineAgent } from '../agent-definition';
import { PromptSet } from '../prompts/prompt-set';
import { ScriptedModelClient } from '../testing/scripted-model';
import { classifyMessage, readVerdict } from './message-routing';

const question = { goal: 'book a flight to Oslo', message: 'make it a window seat' };

describe('classifyMessage', () => {
  it("asks the model with the fixed prompt, in the agent's language, and reads its verdict", async () => {
    const model = new ScriptedModelClient(['{"join":true,"reason":"about the flight"}']);
    const zh = new PromptSet(defineAgent({ name: 'a', language: 'zh' }));
    expect(await classifyMessage(model, zh, question)).toEqual({
      join: true,
      reason: 'about the flight',
      usage: { prompt_tokens: 10, completion_tokens: 5 },
    });
    const [system, user] = model.requests[0].messages;
    expect(system.content).toContain('JSON');
    expect(user.content).toContain('book a flight to Oslo');
    expect(user.content).toContain('make it a window seat');
    expect(user.content).toContain('新消息');
  });

  it('starts a new run when the model fails or its answer cannot be read', async () => {
    const en = new PromptSet(defineAgent({ name: 'a' }));
    const failing = new ScriptedModelClient([{ error: new Error('down') }]);
    const unasked = await classifyMessage(failing, en, question);
    expect(unasked.join).toBe(false);
    expect(unasked.usage).toBeUndefined();
    expect(readVerdict('maybe')).toMatchObject({ join: false });
    expect(readVerdict('```json\n{"join": false, "reason": "unrelated"}\n```')).toEqual({
      join: false,
      reason: 'unrelated',
    });
  });
});
