import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, parseAssistantReply } from '@app/protocol';
import { ClientToolSet, toPromptFunction } from './client-tool-set';

const weather = {
  name: 'get_weather',
  description: 'The weather.',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City' },
      zip: { type: ['string', 'null'] },
      days: { type: 'integer', minimum: 1, maximum: 7 },
      unit: { type: 'string', enum: ['c', 'f'] },
      where: { type: 'object', properties: { lat: { type: 'number' } } },
    },
    required: ['city'],
  },
};

describe('client tools', () => {
  it('are described in the prompt from their JSON Schema like platform functions', () => {
    const prompt = buildSystemPrompt({ functions: [toPromptFunction(weather)], protocol: 'xml-toon' });
    expect(prompt).toContain(
      'get_weather(city: string (City), zip?: string, days?: integer 1..7, unit?: c|f, ' +
        'where?: object (schema: {"properties":{"lat":{"type":"number"}}})): The weather.',
    );
    expect(toPromptFunction({ name: 'ping' })).toEqual({
      name: 'ping',
      description: '',
      parameters: { type: 'object', properties: {}, required: [] },
    });
  });

  it('are recognised in a reply, and their calls typed by the schema with an id naming the run', () => {
    const tools = new ClientToolSet([weather]);
    const reply = parseAssistantReply('<call name="get_weather"><p>city: 007</p><p>days: 3</p></call>');
    if (reply.kind !== 'calls') throw new Error(`not a call: ${reply.kind}`);
    expect(tools.calledIn(reply.calls)).toBe(true);
    expect(tools.calledIn([{ name: 'add', params: {} }])).toBe(false);
    expect(tools.pendingCall(reply.calls[0], 'run_x', 2)).toEqual({
      id: 'call_run_x_2',
      name: 'get_weather',
      arguments: { city: '007', days: 3 },
    });
  });
});
