import { describe, expect, it } from 'vitest';
import { CI_FLOOR_SAVING_VS_FUNCTION_CALLING, measureCorpus, saving } from '../../../bench/protocol/budget';

// Token counts only, no timing: the benchmark corpus of bench/protocol must keep its savings.
describe('token budget on the benchmark corpus', () => {
  const corpus = measureCorpus();

  it('never costs more than compact JSON in the same envelope, case by case', () => {
    const costlier = corpus.cases
      .filter((row) => row.billed.ours > row.billed.compactJson)
      .map((row) => row.name);
    expect(costlier).toEqual([]);
  });

  it('costs fewer prompt tokens in total than JSON function calling, by at least the CI floor', () => {
    expect(saving(corpus.billed.ours, corpus.billed.functionCalling)).toBeGreaterThanOrEqual(
      CI_FLOOR_SAVING_VS_FUNCTION_CALLING,
    );
  });

  it('saves tokens on every table of ten rows or more against compact JSON', () => {
    const tables = corpus.cases.filter((row) => /\d+ rows/.test(row.name));
    expect(tables.length).toBeGreaterThanOrEqual(6);
    for (const row of tables) expect(row.billed.ours).toBeLessThan(row.billed.compactJson);
  });
});
