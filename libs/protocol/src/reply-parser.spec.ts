import { describe, expect, it } from 'vitest';
import { parseAssistantReply } from './reply-parser';

describe('parseAssistantReply', () => {
  it('speaks xml-toon unless told otherwise', () => {
    expect(parseAssistantReply('<call name="ping"/>')).toEqual({
      kind: 'calls',
      calls: [{ name: 'ping', params: {}, raw: {} }],
    });
  });

  it('speaks json-action when asked', () => {
    expect(parseAssistantReply('{"type":"final","answer":"done"}', 'json-action')).toEqual({
      kind: 'final',
      answer: 'done',
    });
  });

  it('returns invalid instead of throwing on input that is not even a string', () => {
    expect(parseAssistantReply(undefined as unknown as string)).toMatchObject({ kind: 'invalid' });
  });

  it('survives a huge reply of unbalanced markup quickly', () => {
    const reply = '<call name="x"><p>a: '.repeat(2000) + '{'.repeat(20000) + '<'.repeat(20000);
    const started = performance.now();
    expect(parseAssistantReply(reply).kind).toBeDefined();
    expect(parseAssistantReply(reply, 'json-action').kind).toBe('invalid');
    expect(performance.now() - started).toBeLessThan(500);
  });
});
