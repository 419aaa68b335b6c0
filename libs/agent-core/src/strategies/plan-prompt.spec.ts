import { describe, expect, it } from 'vitest';
import type { FunctionDefinition } from '@app/contracts';
import { defineAgent } from '../agent-definition';
import { PromptSet } from '../prompts/prompt-set';
import { planningPrompt } from './plan-prompt';

const book: FunctionDefinition = {
  name: 'book_room',
  description: 'Book a room.',
  parameters: {
    type: 'object',
    properties: {
      room: { type: 'string', enum: ['red', 'blue'], description: 'Which room' },
      nights: { type: 'integer', minimum: 1, maximum: 14, default: 1 },
    },
    required: ['room'],
  },
};

describe('planningPrompt', () => {
  const profile = defineAgent({ name: 'default', allowed_tools: ['*'] });
  const prompts = new PromptSet(profile);

  it('lists the functions with every constraint a plan needs: enums, ranges, defaults, descriptions', () => {
    expect(planningPrompt(prompts, profile, [book])).toContain(
      '## Functions\nbook_room(room: red|blue (Which room), nights?: integer 1..14 =1): Book a room.',
    );
  });

  it('says so when no function is allowed', () => {
    expect(planningPrompt(prompts, profile, [])).toMatch(/## Functions\n\(none\)$/);
  });
});
