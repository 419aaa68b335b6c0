import { describe, expect, it } from 'vitest';
import { FnExecRequest, InvalidParamsError, parseDto } from '@app/contracts';

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

  it('refuses a body that is not an object', () => {
    expect(() => parseDto(FnExecRequest, [1, 2])).toThrow(/must be a JSON object/);
    expect(() => parseDto(FnExecRequest, null)).toThrow(/must be a JSON object/);
  });
});
