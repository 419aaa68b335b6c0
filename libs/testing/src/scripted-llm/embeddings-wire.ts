import { WireError } from './wire-common';

/** Dimensions of a scripted embedding unless the request asks for others. */
export const SCRIPTED_EMBEDDING_DIMENSIONS = 64;
const MAX_DIMENSIONS = 4096;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A deterministic stand-in for an embedding model: each word's character trigrams hashed into the
 * vector, normalised to length 1. Texts sharing word stems (`repairs`, `repairing`) land close even
 * when they share no whole word, which is enough to tell search by meaning from search by words.
 */
export function scriptedEmbedding(text: string, dimensions = SCRIPTED_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) vector[fnv1a(padded.slice(i, i + 3)) % dimensions] += 1;
  }
  const length = Math.hypot(...vector) || 1;
  return vector.map((value) => value / length);
}

/** An OpenAI `/v1/embeddings` reply for a request body (`input`: a string or strings). */
export function embeddingsReply(body: Record<string, unknown>): object {
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0 || !input.every((text) => typeof text === 'string'))
    throw new WireError(400, "'input' must be a string or a non-empty array of strings");
  const dimensions = body.dimensions ?? SCRIPTED_EMBEDDING_DIMENSIONS;
  if (
    typeof dimensions !== 'number' ||
    !Number.isInteger(dimensions) ||
    dimensions < 1 ||
    dimensions > MAX_DIMENSIONS
  )
    throw new WireError(400, `'dimensions' must be a whole number from 1 to ${MAX_DIMENSIONS}`);
  const tokens = (input as string[]).reduce((sum, text) => sum + (text.match(WORD)?.length ?? 0), 0);
  return {
    object: 'list',
    data: (input as string[]).map((text, index) => ({
      object: 'embedding',
      index,
      embedding: encoded(scriptedEmbedding(text, dimensions), body.encoding_format),
    })),
    model: typeof body.model === 'string' ? body.model : 'scripted-embedding',
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/** `base64` (what OpenAI's SDK asks for): the float32 values, little-endian, as base64. */
function encoded(vector: number[], format: unknown): number[] | string {
  if (format !== 'base64') return vector;
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
