import { describe, expect, it } from 'vitest';
import { parseJsonActionReply } from './json-action.codec';
import type { ParsedReply } from './types';

function errorOf(reply: ParsedReply): string {
  if (reply.kind !== 'invalid') throw new Error(`expected invalid, got ${JSON.stringify(reply)}`);
  return reply.error;
}

describe('parseJsonActionReply', () => {
  it('reads an action as one call', () => {
    expect(
      parseJsonActionReply(
        '{"type":"action","tool":"http_request","args":{"url":"https://x.io","retries":2}}',
      ),
    ).toEqual({
      kind: 'calls',
      calls: [{ name: 'http_request', params: { url: 'https://x.io', retries: 2 } }],
    });
  });

  it('reads a final answer', () => {
    expect(parseJsonActionReply('{"type":"final","answer":"42 files"}')).toEqual({
      kind: 'final',
      answer: '42 files',
    });
  });

  it('tolerates a code fence and prose around the object, keeping the prose as the thought', () => {
    const reply =
      'I need the page first.\n```json\n{"type": "action", "tool": "fetch", "args": {"q": "a } b"}}\n```\nWaiting.';
    expect(parseJsonActionReply(reply)).toEqual({
      kind: 'calls',
      calls: [{ name: 'fetch', params: { q: 'a } b' } }],
      thought: 'I need the page first.\n\nWaiting.',
    });
  });

  it('skips brace-delimited prose that is not JSON', () => {
    const reply = 'Using {placeholder} syntax: {"type":"final","answer":"ok"}';
    expect(parseJsonActionReply(reply)).toEqual({ kind: 'final', answer: 'ok' });
  });

  it('treats missing args as no arguments and unwraps args sent as a JSON string', () => {
    expect(parseJsonActionReply('{"type":"action","tool":"ping"}')).toMatchObject({
      calls: [{ params: {} }],
    });
    expect(parseJsonActionReply('{"type":"action","tool":"f","args":"{\\"a\\":1}"}')).toMatchObject({
      calls: [{ params: { a: 1 } }],
    });
  });

  it('infers the type from "tool" or "answer" and accepts it in any case', () => {
    expect(parseJsonActionReply('{"tool":"ping"}')).toMatchObject({ kind: 'calls' });
    expect(parseJsonActionReply('{"answer":"hi"}')).toEqual({ kind: 'final', answer: 'hi' });
    expect(parseJsonActionReply('{"type":"Final","answer":"hi"}')).toEqual({ kind: 'final', answer: 'hi' });
  });

  it('renders a non-string answer as JSON text', () => {
    expect(parseJsonActionReply('{"type":"final","answer":{"count":3}}')).toEqual({
      kind: 'final',
      answer: '{"count":3}',
    });
  });

  it.each([
    ['', 'the reply is empty'],
    ['The answer is 42.', 'it contains no JSON object'],
    ['{"tool_name":"x"}', 'its JSON object has no "type"'],
    [
      '{"type":"action","tool":"a"} {"type":"action","tool":"b"}',
      'it contains 2 JSON objects; send one per reply',
    ],
    ['{"type":"think","text":"hmm"}', '"type" is "think", not "action" or "final"'],
    ['{"type":"action","tool":"  ","args":{}}', 'the action has no "tool"'],
    ['{"type":"action","tool":"f","args":[1,2]}', '"args" of f must be a JSON object'],
    ['{"type":"final"}', 'the final message has no "answer"'],
    ['{"type":"action","tool":"f",', 'it contains no JSON object'],
  ])('rejects %j, saying %j', (reply, problem) => {
    const error = errorOf(parseJsonActionReply(reply));
    expect(error).toContain(problem);
    expect(error).toContain('Reply with exactly one JSON object');
  });
});
