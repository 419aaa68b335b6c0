import { describe, expect, it } from 'vitest';
import type { FunctionDefinition } from '@app/contracts';
import { BUILTIN_DEFAULT, resolveProfile } from '../agents/agent-profile';
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
  const profile = resolveProfile(BUILTIN_DEFAULT, 'builtin');

  it('lists the functions with every constraint a plan needs: enums, ranges, defaults, descriptions', () => {
    expect(planningPrompt(profile, [book])).toContain(
      '## Functions\nbook_room(room: "red"|"blue", nights?: integer 1..14 = 1): Book a room.\n  room: Which room',
    );
  });

  it('says so when no function is allowed', () => {
    expect(planningPrompt(profile, [])).toMatch(/## Functions\n\(none\)$/);
  });
});
