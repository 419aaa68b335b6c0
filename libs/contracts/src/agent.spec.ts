import { describe, expect, it } from 'vitest';
import { AgentRunRequest } from '@app/contracts';
import { refusedFields } from './refused-fields.fixture';

const fieldsOf = (input: unknown) => refusedFields(AgentRunRequest, input);

describe('AgentRunRequest', () => {
  it('needs a message, unless it carries tool results', () => {
    expect(fieldsOf({ message: '' })).toEqual(['message']);
    expect(fieldsOf({})).toEqual(['message']);
    expect(fieldsOf({ tool_results: [{ tool_call_id: 'call_run_1_0', content: 'ok' }] })).toEqual([]);
    expect(
      fieldsOf({ message: '', tool_results: [{ tool_call_id: 'call_run_1_0', content: 'ok' }] }),
    ).toEqual([]);
  });

  it('checks a caller-held history, client tools and tool results field by field', () => {
    expect(
      fieldsOf({
        message: 'Hi',
        history: [{ role: 'system', content: 'x' }],
        client_tools: [{ name: 'bad name', parameters: 'x' }],
        tool_results: [{ tool_call_id: 'abc', content: 1 }],
      }).sort(),
    ).toEqual([
      'client_tools.0.name',
      'client_tools.0.parameters',
      'history.0.role',
      'tool_results.0.content',
      'tool_results.0.tool_call_id',
    ]);
    expect(fieldsOf({ message: 'Hi', tool_results: [] })).toEqual(['tool_results']);
  });
});
