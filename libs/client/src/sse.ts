/** One Server-Sent Event as the WHATWG parsing rules define it. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental `text/event-stream` parser: lines end in LF, CRLF or CR (even split across
 * chunks), `data` lines join with LF, comment lines (`: keep-alive`) are skipped, one space after
 * the colon is dropped, and an event is dispatched on a blank line only when it has data.
 */
export class SseParser {
  private buffer = '';
  private started = false;
  private event = '';
  private data: string[] = [];
  private id?: string;
  private lastId?: string;

  push(chunk: string): SseMessage[] {
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    this.buffer += chunk;
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      // A CR that ends the buffer may be the first half of a CRLF still to come.
      if (c === '\r' && i === this.buffer.length - 1) break;
      this.line(this.buffer.slice(start, i), out);
      if (c === '\r' && this.buffer[i + 1] === '\n') i++;
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  /** The stream ended: an event not closed by a blank line is dropped, as the standard says. */
  end(): SseMessage[] {
    const out: SseMessage[] = [];
    if (this.buffer.endsWith('\r')) this.line(this.buffer.slice(0, -1), out);
    this.buffer = '';
    return out;
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === '') return this.dispatch(out);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }

  private dispatch(out: SseMessage[]): void {
    if (this.id !== undefined) this.lastId = this.id;
    if (this.data.length > 0) {
      const message: SseMessage = { event: this.event || 'message', data: this.data.join('\n') };
      if (this.lastId !== undefined && this.lastId !== '') message.id = this.lastId;
      out.push(message);
    }
    this.event = '';
    this.data = [];
    this.id = undefined;
  }
}

/** Reads a response body as SSE messages until it ends or `signal` aborts (which throws its reason). */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
    yield* parser.end();
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
