import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { type ErrorBody, toAppError } from '@app/contracts';
import { SpanKind, inSpan, withRemoteContext } from '@app/observability';
import { fromNatsHeaders } from './bus-headers';
import type { Handler } from './bus.types';
import { decodeJson, encodeJson } from './json.codec';
import { PROGRESS_HEADER, type ProgressMessage, type TakenMessage } from './progress-request';

/** What a responder sends back: its reply, or the error it failed with, by its stable code. */
export type Envelope = { ok: true; data: unknown } | { ok: false; error: ErrorBody };

/**
 * Runs `handler` on one request and replies with its envelope: every error becomes a reply here
 * and only here. A caller that asked for progress is told at once that the request was taken
 * (so a responder that never takes it, its event loop blocked, is soon known for gone), and is
 * given a way to send progress on its reply inbox.
 */
export async function answer(
  connection: NatsConnection,
  msg: Msg,
  handler: Handler,
  traced: boolean,
): Promise<void> {
  const headers = fromNatsHeaders(msg.headers);
  const progress =
    headers[PROGRESS_HEADER] && msg.reply
      ? (data: unknown) => {
          const body: ProgressMessage = { progress: data };
          if (!connection.isClosed()) connection.publish(msg.reply!, encodeJson(body));
        }
      : undefined;
  if (progress && !connection.isClosed()) {
    const taken: TakenMessage = { taken: true };
    connection.publish(msg.reply!, encodeJson(taken));
  }
  const run = async (): Promise<Envelope> => {
    try {
      const result = await handler(decodeJson(msg.data), { subject: msg.subject, headers, progress });
      return { ok: true, data: result };
    } catch (err) {
      return { ok: false, error: toAppError(err).toBody() };
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
  try {
    msg.respond(encodeJson(envelope));
  } catch {
    // the connection is closing; the caller's deadline will tell it
  }
}
