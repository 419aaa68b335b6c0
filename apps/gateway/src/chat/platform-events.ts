import { toAppError } from '@app/contracts';
import type { RunStreamFormat } from '../common/event-stream';

/** The platform's own SSE (`POST /api/v1/chat`, `/api/v1/runs`): `event: <type>` with the event's data. */
export const platformEvents: RunStreamFormat = {
  headers: () => ({}),
  event: (event) => {
    const id = event.seq > 0 ? `id: ${event.seq}\n` : '';
    return `${id}event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
  },
  end: (reply) => `event: run_end\ndata: ${JSON.stringify(reply)}\n\n`,
  error: (err) => `event: error\ndata: ${JSON.stringify({ error: toAppError(err).toBody() })}\n\n`,
};
