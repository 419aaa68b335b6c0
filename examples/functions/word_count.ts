// A custom function in TypeScript: Node strips the types, nothing is compiled.
interface Params {
  text: string;
  top?: number;
}

interface Context {
  logger: { info(message: string, fields?: unknown): void };
}

export default {
  name: 'word_count',
  description: 'Counts the words of a text and lists the most frequent ones.',
  parameters: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'the text to count' },
      top: { type: 'integer', description: 'how many frequent words to list', default: 3, minimum: 1, maximum: 20 },
    },
    required: ['text'],
  },
  timeout_ms: 2_000,
  async execute({ text, top = 3 }: Params, ctx: Context) {
    const words = text.toLowerCase().match(/\p{L}[\p{L}'-]*/gu) ?? [];
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    const frequent = [...counts].sort((a, b) => b[1] - a[1]).slice(0, top).map(([word, count]) => ({ word, count }));
    ctx.logger.info('counted', { words: words.length });
    return {
      message: `${words.length} words, ${counts.size} distinct`,
      data: frequent,
    };
  },
};
