import { describe, expect, it } from 'vitest';
import { toFunctionResult } from './mcp-tool-result';

describe('MCP tool result → function result', () => {
  it('joins text blocks into the message', () => {
    const result = toFunctionResult({
      content: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    });
    expect(result).toEqual({ message: 'one\n\ntwo' });
  });

  it('puts structuredContent in data and drops a text block that only repeats it', () => {
    const structured = { temperature: 33, conditions: 'Cloudy' };
    const result = toFunctionResult({
      content: [
        { type: 'text', text: JSON.stringify(structured, null, 2) },
        { type: 'text', text: 'Mild.' },
      ],
      structuredContent: structured,
    });
    expect(result).toEqual({ data: structured, message: 'Mild.' });
  });

  it('notes images, audio and resources by type and size instead of inlining them', () => {
    const result = toFunctionResult({
      content: [
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAA=' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } },
        { type: 'resource_link', uri: 'file:///b', name: 'b' },
      ],
    });
    expect(result.message?.split('\n\n')).toEqual([
      '[image image/png, 3 bytes]',
      '[audio audio/wav, 2 bytes]',
      '[resource file:///a.txt text/plain, 5 characters]',
      '[resource link file:///b (b)]',
    ]);
  });

  it('turns isError into a function error carrying the text', () => {
    expect(() =>
      toFunctionResult({ isError: true, content: [{ type: 'text', text: 'Access denied' }] }),
    ).toThrow(expect.objectContaining({ code: 'function_error', message: 'Access denied' }));
    expect(() => toFunctionResult({ isError: true })).toThrow('the MCP tool reported an error');
  });
});
