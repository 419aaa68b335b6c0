import type { NatsConnection } from '@nats-io/transport-node';
import type { JetStreamManager } from '@nats-io/jetstream';
import { coalesced } from '@app/retry';
import { decodeJson } from './json.codec';

/** One stored event as read back: its payload and its place in the stream. */
export interface StoredEvent<T> {
  payload: T;
  seq: number;
}

/** At the latest, the stream is asked again this often (a publish no one saw: the connection was down). */
export const DIRECT_POLL_MS = 1_000;

/**
 * Reads a subject's stored events one by one without a consumer: each by a direct get from
 * `afterSeq` on (any replica of the stream answers: `allow_direct`), the next one asked as soon as
 * the subject's own publish is seen on a plain subscription (a doorbell: what is stored after it
 * is published after it) and at least every `DIRECT_POLL_MS`. The first read is awaited, so a
 * stream that cannot be read fails the caller at once; later failures are asked again. Events are
 * given in order, each once. What the event log falls back to when a reader's consumer cannot be
 * created (event-log.ts).
 */
export async function readDirect<T>(
  connection: NatsConnection,
  jsm: JetStreamManager,
  at: { stream: string; subject: string; afterSeq: number },
  onEvent: (stored: StoredEvent<T>) => void,
): Promise<() => void> {
  const { stream, subject } = at;
  let next = at.afterSeq + 1;
  let stopped = false;
  const readAll = async () => {
    for (;;) {
      const stored = await jsm.direct.getMessage(stream, { seq: next, next_by_subj: subject });
      if (stopped || !stored) return;
      next = stored.seq + 1;
      onEvent({ payload: decodeJson(stored.data) as T, seq: stored.seq });
    }
  };
  // One read at a time: a doorbell during a read asks for one more read after it.
  const read = coalesced(readAll);
  const ring = (): void => {
    if (!stopped) read().catch(() => undefined);
  };
  const doorbell = connection.subscribe(subject, { callback: ring });
  try {
    await read();
  } catch (err) {
    stopped = true;
    doorbell.unsubscribe();
    throw err;
  }
  const poll = setInterval(ring, DIRECT_POLL_MS);
  return () => {
    stopped = true;
    clearInterval(poll);
    doorbell.unsubscribe();
  };
}
