import { UnavailableError } from '@app/contracts';

/** The request header by which a caller asks its responder for progress messages. */
export const PROGRESS_HEADER = 'ac-progress';

export interface ProgressOptions {
  /**
   * Once the responder has spoken, it must speak again within this long or be taken for gone:
   * time this process could listen (a hold of its own is not the responder's silence).
   */
  silenceMs: number;
  /**
   * The responder must take the request within this long (its bus says so at once, before the
   * handler runs) or be taken for gone: one whose event loop is blocked never does. Listening
   * time too, as `silenceMs`.
   */
  acceptMs?: number;
  onProgress?: (progress: unknown) => void;
}

/**
 * The responder took the request, sent progress, then fell silent for longer than allowed: it
 * died (kill -9, a lost host) with the request in hand. `progress` is the last it said. Or the
 * responder the request was delivered to never took it (`progress` undefined): its event loop is
 * blocked, or it died with the request in its socket.
 */
export class ResponderGoneError extends UnavailableError {
  constructor(
    readonly subject: string,
    readonly progress: unknown,
    silenceMs: number,
  ) {
    super(
      progress === undefined
        ? `the responder to '${subject}' did not take it within ${silenceMs} ms`
        : `the responder to '${subject}' fell silent for ${silenceMs} ms`,
      { subject },
    );
  }
}

/** Sent on the reply inbox before the reply; told apart from the reply's `{ok}` envelope. */
export interface ProgressMessage {
  progress: unknown;
}

/** Sent by the responder's bus as soon as it takes a request that asked for progress. */
export interface TakenMessage {
  taken: true;
}
