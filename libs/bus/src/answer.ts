import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { AppError, type ErrorBody, toAppError } from '@app/contracts';
import { SpanKind, inSpan, withRemoteContext } from '@app/observability';
import { fromNatsHeaders } from './bus-headers';
import type { Handler, UnexpectedErrorListener } from './bus.types';
import { decodeJson, encodeJson } from './json.codec';
import { PROGRESS_HEADER, type ProgressMessage, type TakenMessage } from './progress-request';

/**
 * A request that asked for progress and is answered within this long is not acknowledged first:
 * its reply says it was taken. Most calls end sooner, and each acknowledgement is one more message
 * through the broker, written by the responder and read by the caller. A responder whose event
 * loop is blocked sends neither, as before, and is known for gone by the caller's accept time.
 */
export const ACK_AFTER_MS = 25;

/** What a responder sends back: its reply, or the error it failed with, by its stable code. */
export type Envelope = { ok: true; data: unknown } | { ok: false; error: ErrorBody };

/**
 * Runs `handler` on one request and replies with its envelope: every error becomes a reply here
 * and only here. A caller that asked for progress is told that the request was taken unless it is
 * answered (or sent progress) within `ACK_AFTER_MS` (so a responder that never takes it, its
 * event loop blocked, is soon known for gone), and is given a way to send progress on its reply
 * inbox.
 */
export async function answer(
  connection: NatsConnection,
  msg: Msg,
  handler: Handler,
  traced: boolean,
  onUnexpected?: UnexpectedErrorListener,
): Promise<void> {
  const headers = fromNatsHeaders(msg.headers);
  const toCaller = (body: ProgressMessage | TakenMessage) => {
    if (!connection.isClosed()) connection.publish(msg.reply!, encodeJson(body));
  };
  const asked = Boolean(headers[PROGRESS_HEADER] && msg.reply);
  const acknowledge = asked ? setTimeout(() => toCaller({ taken: true }), ACK_AFTER_MS) : undefined;
  const progress = asked
    ? (data: unknown) => {
        clearTimeout(acknowledge);
        toCaller({ progress: data });
      }
    : undefined;
  const run = async (): Promise<Envelope> => {
    try {
      const result = await handler(decodeJson(msg.data), { subject: msg.subject, headers, progress });
      return { ok: true, data: result };
    } catch (err) {
      const failure = toAppError(err);
      if (failure.code === 'internal' && !(err instanceof AppError)) onUnexpected?.(err, msg.subject);
      return { ok: false, error: failure.toBody() };
    }
  };
  const envelope = traced
    ? await withRemoteContext(headers, () =>
        inSpan(
          `process ${msg.subject}`,
          { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats' } },
          run,
        ),
      )
    : await run();
  clearTimeout(acknowledge);
  try {
    msg.respond(encodeJson(envelope));
  } catch {
    // the connection is closing; the caller's deadline will tell it
  }
}
