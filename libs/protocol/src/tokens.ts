import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';

export type TokenEncoding = 'o200k_base' | 'cl100k_base';

// Older OpenAI chat and embedding models; everything newer (gpt-4o, gpt-4.1, gpt-5, o-series)
// and every non-OpenAI model is counted with o200k_base, the closest public approximation.
const CL100K_MODELS = /^(gpt-4(?!o|\.\d)|gpt-3\.5|text-embedding-(ada-002|3-))/;

// Text that happens to contain "<|endoftext|>" is counted as ordinary text instead of throwing.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function encodingForModel(model?: string): TokenEncoding {
  const bareName = (model ?? '').toLowerCase().split('/').pop() ?? '';
  return CL100K_MODELS.test(bareName) ? 'cl100k_base' : 'o200k_base';
}

/** Counts tokens with the model's real tokenizer (o200k_base when no model is given). */
export function countTokens(text: string, model?: string): number {
  if (!text) return 0;
  return encodingForModel(model) === 'cl100k_base'
    ? countCl100k(text, AS_PLAIN_TEXT)
    : countO200k(text, AS_PLAIN_TEXT);
}
