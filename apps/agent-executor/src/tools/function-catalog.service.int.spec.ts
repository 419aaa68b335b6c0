import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FunctionDefinition, Routes } from '@app/contracts';
import { ask } from '../testing/executor-app';
import { startWorld, type World } from '../testing/world';

// Right after a restart the executor may have gathered the catalogue before any provider answered.
describe('the catalogue a run sees right after start (an in-process executor, real NATS)', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld({ functions: [] });
  });
  afterAll(() => world?.close());

  it('is gathered again before a run is told it has no functions', async () => {
    // A provider that answers the catalogue but never announced itself: it was up before the executor.
    const definition: FunctionDefinition = {
      name: 'late_tool',
      description: 'A tool whose provider answered after the executor started.',
      parameters: { type: 'object', properties: {}, required: [] },
    };
    world.bus.serve(Routes.fnCatalog, () => ({
      provider: 'late',
      instance: 'l1',
      functions: [definition],
    }));
    await world.bus.flush();
    world.script({ replies: ['Nothing to do.'] });
    const reply = await ask(world.bus, { message: 'hello' });
    expect(reply.finish_reason).toBe('final');
    const system = (world.llm.requests()[0].body as { messages: { role: string; content: string }[] })
      .messages[0];
    expect(system.content).toContain('late_tool');
  });
});
