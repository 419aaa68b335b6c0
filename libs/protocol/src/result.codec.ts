import { fitError, fitSuccess } from './result-fit';
import { renderError, renderSuccess } from './result-render';
import { encodeData } from './toon-data';
import type { ResultContent, ResultEncodingOptions } from './types';

/**
 * A successful result as the model reads it (shape in result-render.ts). With `maxLength`, a
 * result over it is cut where its structure allows and stays well-formed and decodable
 * (result-fit.ts).
 */
export function encodeResult(
  name: string,
  content: ResultContent,
  options: ResultEncodingOptions = {},
): string {
  const data = content.data === undefined ? undefined : encodeData(content.data, options);
  const whole = renderSuccess(name, { message: content.message, data, markdown: content.markdown });
  if (options.maxLength === undefined || whole.length <= options.maxLength) return whole;
  // the saving was told for the whole data; the cut's own encodings are not told again
  const { onSaved: _told, ...fitting } = options;
  return fitSuccess(name, content, { ...fitting, maxLength: options.maxLength });
}

/** A failed call; with `maxLength`, a long message is cut at a word boundary. */
export function encodeError(name: string, message: string, options: { maxLength?: number } = {}): string {
  const whole = renderError(name, message);
  if (options.maxLength === undefined || whole.length <= options.maxLength) return whole;
  return fitError(name, message, options.maxLength);
}
