import { describe, expect, it } from 'vitest';
import { readSse, SseParser, type SseMessage } from './sse';

const parseAll = (chunks: string[]): SseMessage[] => {
  const parser = new SseParser();
  return [...chunks.flatMap((c) => parser.push(c)), ...parser.end()];
};

describe('SseParser', () => {
  it('joins multi-line data with LF and takes the event name', () => {
    expect(parseAll(['event: delta\ndata: {"a":\ndata: 1}\n\n'])).toEqual([
      { event: 'delta', data: '{"a":\n1}' },
    ]);
  });

  it('skips comments and keep-alives, and dispatches nothing for an event without data', () => {
    expect(parseAll([': keep-alive\n\n', 'event: thought\n\n', ':x\nevent: a\ndata: 1\n\n'])).toEqual([
      { event: 'a', data: '1' },
    ]);
  });

  it('reads CRLF and CR line ends, even a CRLF split across chunks', () => {
    expect(parseAll(['event: a\r', '\ndata: 1\r', '\n\r', '\nevent: b\rdata: 2\r\r'])).toEqual([
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
    ]);
  });

  it('reassembles fields split anywhere, one character at a time', () => {
    const text = 'id: 7\nevent: tool_call\ndata: {"name":"add"}\n\n';
    expect(parseAll([...text])).toEqual([{ event: 'tool_call', data: '{"name":"add"}', id: '7' }]);
  });

  it('drops only one space after the colon, reads a field without colon, defaults the event to message', () => {
    expect(parseAll(['data:  two spaces\ndata\n\n'])).toEqual([{ event: 'message', data: ' two spaces\n' }]);
  });

  it('strips a leading byte-order mark and drops an event the stream cut off', () => {
    expect(parseAll(['\uFEFFdata: 1\n\n', 'data: unfinished\n'])).toEqual([{ event: 'message', data: '1' }]);
  });
});

describe('readSse', () => {
  const body = (chunks: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });

  it('decodes UTF-8 split inside a character', async () => {
    const bytes = new TextEncoder().encode('data: café ☕\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(Uint8Array.of(byte));
        controller.close();
      },
    });
    const out: SseMessage[] = [];
    for await (const m of readSse(stream)) out.push(m);
    expect(out).toEqual([{ event: 'message', data: 'café ☕' }]);
  });

  it('stops with the abort reason when the signal aborts while waiting', async () => {
    const controller = new AbortController();
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('data: 1\n\n'));
      },
    });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const m of readSse(stream, controller.signal)) {
        seen.push(m.data);
        controller.abort(new Error('stop'));
      }
    })();
    await expect(reading).rejects.toThrow('stop');
    expect(seen).toEqual(['1']);
  });

  it('reads every event of a finished body', async () => {
    const out: string[] = [];
    for await (const m of readSse(body(['event: a\ndata: 1\n\nevent: b\n', 'data: 2\n\n'])))
      out.push(m.event);
    expect(out).toEqual(['a', 'b']);
  });
});
