import type { FunctionResult } from '@app/contracts';
import { Metrics } from '@app/observability';
import { countTokens, encodeError, encodeResult } from '@app/protocol';

/**
 * What the model reads back from one call: the seed's `<result>` shape, cut to the profile's
 * `observation_max_len` with a marker saying how much was left out. The closing tag is kept so a
 * cut result still reads as one element.
 */
export function successObservation(
  name: string,
  result: FunctionResult,
  maxLen: number,
  model?: string,
): string {
  const encoded = encodeResult(name, result, { model });
  if (result.data !== undefined)
    countSavedTokens(encoded, encodeResult(name, result, { model, format: 'json' }), model);
  return cut(encoded, maxLen);
}

/** `ac_tokens_saved_total`: what the chosen encoding saved against compact JSON in the same envelope. */
function countSavedTokens(encoded: string, asJson: string, model?: string): void {
  if (encoded === asJson) return;
  const saved = countTokens(asJson, model) - countTokens(encoded, model);
  if (saved > 0) Metrics.tokensSaved().inc(saved);
}

export function errorObservation(name: string, message: string, maxLen: number): string {
  return cut(encodeError(name, message), maxLen);
}

const CLOSING = '\n</result>';

export function cut(text: string, maxLen: number): string {
  if (text.length <= maxLen) return text;
  const kept = text.slice(0, Math.max(0, maxLen));
  return `${kept}\n[truncated: ${text.length - kept.length} of ${text.length} characters left out]${CLOSING}`;
}
