import type { FunctionDefinition, FunctionResult } from '@app/contracts';
import { encodeError, encodeResult, type ResultPaging } from '@app/protocol';

export interface ObservationOptions {
  /** The profile's `observation_max_len`. */
  maxLen: number;
  model?: string;
  /** The called function, when known: a cut result tells how to page through it. */
  definition?: FunctionDefinition;
  /** The parameters the call ran with. */
  args?: Record<string, unknown>;
  /**
   * Told the tokens the chosen encoding of the result's data saved against compact JSON of the same
   * data (`ac_tokens_saved_total`), from the encoder's own comparison.
   */
  onTokensSaved?: (tokens: number) => void;
}

/**
 * What the model reads back from one call: the `<result>` element, cut to the profile's
 * `observation_max_len` where its structure allows (whole rows, items, fields, lines; see
 * libs/protocol result-fit.ts), so it stays well-formed and its data decodes, with a note on what
 * was left out and, for a function with an `offset` parameter, the offset that gives the rest.
 */
export function successObservation(
  name: string,
  result: FunctionResult,
  options: ObservationOptions,
): string {
  const { maxLen, model, onTokensSaved } = options;
  // A metric only: the encoder's own comparison of its candidates, read once the turn has moved on
  // (for a table, JSON was not a candidate: encoded and counted then), and never at the cost of the
  // process: a saving it cannot count is left uncounted.
  const onSaved = onTokensSaved
    ? (saved: () => number) =>
        setImmediate(() => {
          try {
            const tokens = saved();
            if (tokens > 0) onTokensSaved(tokens);
          } catch {
            // uncounted
          }
        })
    : undefined;
  const whole = encodeResult(name, result, { model, ...(onSaved ? { onSaved } : {}) });
  if (whole.length <= maxLen) return whole;
  const paging = pagingOf(options.definition, options.args);
  return encodeResult(name, result, { model, maxLength: maxLen, ...(paging ? { paging } : {}) });
}

export function errorObservation(name: string, message: string, maxLen: number): string {
  return encodeError(name, message, { maxLength: maxLen });
}

/** A function pages when it takes an integer `offset` (the `*_list` built-ins do). */
export function pagingOf(
  definition: FunctionDefinition | undefined,
  args: Record<string, unknown> | undefined,
): ResultPaging | undefined {
  const offset = definition?.parameters.properties.offset;
  if (!offset || (offset.type !== 'integer' && offset.type !== 'number')) return undefined;
  const given = args?.offset;
  return { offsetParam: 'offset', offset: typeof given === 'number' && given > 0 ? given : 0 };
}
