import { describe, expect, it } from 'vitest';
import { PromptSet } from '@app/agent-core';
import { parseDto, AgentProfileSpec } from '@app/contracts';
import { resolveProfile } from './agent-profile';

const resolved = (spec: Record<string, unknown>) =>
  resolveProfile(parseDto(AgentProfileSpec, { name: 'helper', ...spec }), 'config');

describe("a profile's prompts", () => {
  it("writes a profile's prompts in its language: its system prompt when it gives none, and every template", () => {
    const zh = resolved({ language: 'zh' });
    const en = resolved({});
    expect(zh.language).toBe('zh');
    expect(zh.system_prompt).not.toBe(en.system_prompt);
    expect(zh.system_prompt).toMatch(/[\u4e00-\u9fff]/);
    expect(new PromptSet(zh).render('routing_instructions')).toMatch(/[\u4e00-\u9fff]/);
    expect(new PromptSet(en).render('routing_instructions')).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it("keeps the profile's own system prompt, and its own templates over its language's", () => {
    const own = resolved({
      language: 'zh',
      system_prompt: 'You are terse.',
      prompts: { routing_request: 'Goal: {goal}. New: {message}.' },
    });
    expect(own.system_prompt).toBe('You are terse.');
    const prompts = new PromptSet(own);
    expect(prompts.render('routing_request', { goal: 'a', message: 'b' })).toBe('Goal: a. New: b.');
    expect(prompts.render('routing_instructions')).toMatch(/[\u4e00-\u9fff]/);
  });
});
