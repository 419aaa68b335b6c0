import { type AgentEvent, toAppError } from '@app/contracts';
import type { RunStreamFormat } from '../common/event-stream';

/**
 * The platform's own SSE (`POST /api/v1/chat`, `/api/v1/runs`): `event: <type>` with the event's
 * data, and its place among the run's kept events as `id:` (`run_end` too), which
 * `GET /api/v1/runs/:id/events` takes back as `Last-Event-ID`.
 */
export const platformEvents: RunStreamFormat = {
  headers: () => ({}),
  event: (event) => `${idOf(event)}event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`,
  end: (reply, event) => `${idOf(event)}event: run_end\ndata: ${JSON.stringify(reply)}\n\n`,
  error: (err) => `event: error\ndata: ${JSON.stringify({ error: toAppError(err).toBody() })}\n\n`,
};

/** `id: <seq>`; none for an event before any was kept (a run that did not stream). */
function idOf(event: AgentEvent): string {
  return event.seq > 0 ? `id: ${event.seq}\n` : '';
}
