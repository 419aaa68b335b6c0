import { describe, expect, it } from 'vitest';
import { AgentRunRequest, FnExecRequest, InvalidParamsError, parseDto } from '@app/contracts';

describe('parseDto', () => {
  it('accepts a valid message and returns a typed instance', () => {
    const req = parseDto(FnExecRequest, { params: { a: 1 }, timeout_ms: 500, caller: { run_id: 'r1' } });
    expect(req).toBeInstanceOf(FnExecRequest);
    expect(req.caller?.run_id).toBe('r1');
  });

  it('lists every bad field, nested ones included', () => {
    try {
      parseDto(FnExecRequest, { params: 'x', timeout_ms: -1, caller: { run_id: 5 }, extra: true });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidParamsError);
      const fields = (err as InvalidParamsError).fields.map((f) => f.field);
      expect(fields).toEqual(expect.arrayContaining(['params', 'timeout_ms', 'caller.run_id', 'extra']));
    }
  });

  it('says a missing field is required, once', () => {
    expect(() => parseDto(AgentRunRequest, {}, 'chat request')).toThrow(
      new InvalidParamsError([{ field: 'message', message: 'is required' }], 'invalid chat request'),
    );
    try {
      parseDto(AgentRunRequest, {});
    } catch (err) {
      expect((err as InvalidParamsError).fields).toEqual([{ field: 'message', message: 'is required' }]);
    }
    expect.assertions(2);
  });

  it('refuses a body that is not an object, and says how to send one when there is none', () => {
    expect(() => parseDto(FnExecRequest, undefined)).toThrow(
      'request must be a JSON object (send one with content-type: application/json)',
    );
    expect(() => parseDto(FnExecRequest, [1, 2])).toThrow(/must be a JSON object/);
    expect(() => parseDto(FnExecRequest, null)).toThrow(/must be a JSON object/);
  });
});
