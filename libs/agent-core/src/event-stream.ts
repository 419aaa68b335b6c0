import type { RunEvent } from './events';
import type { EventSink } from './ports';

/** An EventSink that is also an async iterator of what it received, ended by `close`. */
export class EventStream implements EventSink, AsyncIterable<RunEvent> {
  private readonly buffered: RunEvent[] = [];
  private waiting?: (next: IteratorResult<RunEvent>) => void;
  private closed = false;

  emit(event: RunEvent): void {
    if (this.closed) return;
    if (this.waiting) {
      const wake = this.waiting;
      this.waiting = undefined;
      wake({ value: event, done: false });
    } else this.buffered.push(event);
  }

  close(): void {
    this.closed = true;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    return {
      next: () => {
        const event = this.buffered.shift();
        if (event) return Promise.resolve({ value: event, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}

/** One sink that hands every event to each of `sinks`. */
export function fanOut(...sinks: (EventSink | undefined)[]): EventSink | undefined {
  const present = sinks.filter((sink): sink is EventSink => sink !== undefined);
  if (present.length <= 1) return present[0];
  return { emit: (event) => present.forEach((sink) => sink.emit(event)) };
}
