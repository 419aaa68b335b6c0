import { describe, expect, it } from 'vitest';
import { countTokens, encodingForModel } from './tokens';

describe('countTokens', () => {
  it('counts with o200k_base by default', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
  });

  it('differs between o200k_base and cl100k_base where their vocabularies differ', () => {
    const text = '这是一个用于比较两种分词器的中文句子。';
    expect(countTokens(text, 'gpt-4')).not.toBe(countTokens(text, 'gpt-4o'));
  });

  it('counts special-token text as ordinary text instead of throwing', () => {
    expect(countTokens('before <|endoftext|> after')).toBeGreaterThan(3);
  });
});

describe('encodingForModel', () => {
  it.each([
    'gpt-4',
    'gpt-4-turbo',
    'gpt-4-32k',
    'gpt-3.5-turbo',
    'openai/gpt-4-0613',
    'text-embedding-3-small',
  ])('uses cl100k_base for %s', (model) => {
    expect(encodingForModel(model)).toBe('cl100k_base');
  });

  it.each(['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-5', 'o3-mini', 'claude-sonnet-4', undefined])(
    'uses o200k_base for %s',
    (model) => {
      expect(encodingForModel(model)).toBe('o200k_base');
    },
  );
});
