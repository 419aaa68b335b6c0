import { describe, expect, it } from 'vitest';
import {
  AgentRunRequest,
  BadRequestError,
  FnExecRequest,
  InvalidParamsError,
  ListRunsRequest,
  PageQuery,
  parseDto,
  schemaValidationGap,
} from '@app/contracts';

describe('parseDto', () => {
  it('says a message shared by several failed rules once (limit=abc)', () => {
    let error: unknown;
    try {
      parseDto(PageQuery, { limit: 'abc' }, 'query');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InvalidParamsError);
    expect((error as InvalidParamsError).message).toBe(
      'invalid query: limit: must be a whole number from 1 to 100',
    );
    expect((error as InvalidParamsError).fields).toEqual([
      { field: 'limit', message: 'must be a whole number from 1 to 100' },
    ]);
  });

  it('accepts a valid message as it came, a plain object, where the DTO has a strict schema', () => {
    const input = { params: { a: 1 }, timeout_ms: 500, caller: { run_id: 'r1' } };
    expect(schemaValidationGap(FnExecRequest)).toBeUndefined();
    expect(parseDto(FnExecRequest, input)).toBe(input);
  });

  it('also returns the input when ajv refuses what class-validator allows (a null optional field)', () => {
    const input = { params: {}, call_id: null };
    expect(parseDto(FnExecRequest, input)).toBe(input);
  });

  it('returns a class instance where the DTO transforms its input', () => {
    expect(schemaValidationGap(ListRunsRequest)).toMatch(/@Transform/);
    expect(parseDto(ListRunsRequest, { principal: 'alice' })).toBeInstanceOf(ListRunsRequest);
  });

  it('refuses input nested too deeply as the caller’s mistake, before class-transformer recurses through it', () => {
    let message: unknown = 'hi';
    for (let level = 0; level < 10_000; level++) message = [message];
    expect(() => parseDto(AgentRunRequest, { message })).toThrow(BadRequestError);
    expect(() => parseDto(AgentRunRequest, { message })).toThrow(/nested more than 64 levels deep/);
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
