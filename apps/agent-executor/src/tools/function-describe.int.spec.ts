import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../testing/executor-app';
import { arithmetic, startWorld, type World } from '../testing/world';

// A definition budget far below three signatures: the prompt lists names, the model asks.
let world: World;

beforeAll(async () => {
  world = await startWorld({
    functions: [
      ...arithmetic,
      {
        name: 'book_room',
        params: {
          room: { type: 'string', enum: ['red', 'blue'], description: 'Which room' },
          nights: { type: 'integer', minimum: 1, maximum: 14, default: 1 },
        },
        required: ['room'],
        run: ({ room }) => ({ message: `booked ${String(room)}` }),
      },
    ],
    agents: [{ name: 'clerk', allowed_tools: ['add', 'book_room'] }],
    env: { AGENT_FUNCTION_DEFINITION_BUDGET: '30' },
  });
});
afterAll(() => world?.close());

function messages(index = -1): { role: string; content: string }[] {
  return (world.llm.requests().at(index)?.body as { messages: { role: string; content: string }[] }).messages;
}

describe('function_describe', () => {
  it('lists functions by name over the budget and gives a full signature on demand, locally', async () => {
    world.script({
      replies: [
        '<call name="function_describe"><p>name: book_room</p></call>',
        '<call name="book_room"><p>room: red</p></call>',
        'Booked.',
      ],
    });
    const reply = await ask(world.bus, { message: 'Book a room', agent: 'clerk' });
    expect(reply.finish_reason).toBe('final');
    const system = messages(0)[0].content;
    expect(system).toContain('function_describe(name: string)');
    expect(system).toMatch(/^book_room$/m);
    expect(system).not.toContain('nights');
    expect(system).not.toContain('multiply');
    expect(messages(1).at(-1)?.content).toContain(
      'book_room(room: red|blue (Which room), nights?: integer 1..14 =1): Test function book_room.',
    );
    expect(world.functions.calls.map((call) => call.name)).toEqual(['book_room']);
  });

  it('describes only what the agent may call', async () => {
    world.script({ replies: ['<call name="function_describe"><p>name: multiply</p></call>', 'No.'] });
    await ask(world.bus, { message: 'Multiply', agent: 'clerk' });
    expect(messages().at(-1)?.content).toContain("<error>function 'multiply' does not exist</error>");
  });
});
