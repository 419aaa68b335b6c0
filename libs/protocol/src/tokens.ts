import { loadModule } from './load-module';

export type TokenEncoding = 'o200k_base' | 'cl100k_base';

type Counter = (text: string, options: { disallowedSpecial: Set<string> }) => number;

// The BPE tables cost memory (o200k_base ~70 MB, cl100k_base ~40 MB), so an encoding is loaded on
// its first use and only when used: a service that never counts tokens never pays for them.
const counters = new Map<TokenEncoding, Counter>();

function counterFor(encoding: TokenEncoding): Counter {
  let counter = counters.get(encoding);
  if (!counter) {
    counter = loadModule<{ countTokens: Counter }>(`gpt-tokenizer/encoding/${encoding}`).countTokens;
    counters.set(encoding, counter);
  }
  return counter;
}

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
  return counterFor(encodingForModel(model))(text, AS_PLAIN_TEXT);
}
