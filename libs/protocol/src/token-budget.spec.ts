import { describe, expect, it } from 'vitest';
import {
  CI_FLOOR_SAVING_VS_FUNCTION_CALLING,
  CI_FLOOR_TABLE_DATA_SAVING,
  LARGE_TOOLSET_SIZE,
  LARGE_TOOLSET_TOKEN_LIMIT,
  measureCorpus,
  measureLargeToolset,
  saving,
  TABULAR_SAVING_TARGET,
  tableCases,
  TARGET_TABLE_CASE,
} from '../../../bench/protocol/budget';

// Token counts only, no timing: the budgets of bench/protocol (stated in docs/benchmarks.md).
describe('token budget on the benchmark corpus', () => {
  const corpus = measureCorpus();

  it('never costs more than compact JSON in the same envelope, case by case', () => {
    const costlier = corpus.cases
      .filter((row) => row.billed.ours > row.billed.compactJson)
      .map((row) => row.name);
    expect(costlier).toEqual([]);
  });

  it(`saves at least ${TABULAR_SAVING_TARGET * 100}% on a tabular list result, data alone and whole request`, () => {
    const target = corpus.cases.find((row) => row.name === TARGET_TABLE_CASE);
    expect(target?.data).toBeDefined();
    expect(saving(target!.data!.ours, target!.data!.json)).toBeGreaterThanOrEqual(TABULAR_SAVING_TARGET);
    expect(saving(target!.final.ours, target!.final.functionCalling)).toBeGreaterThanOrEqual(
      TABULAR_SAVING_TARGET,
    );
  });

  it('saves at least the CI floor on the data of every table', () => {
    const tables = tableCases(corpus);
    expect(tables.length).toBeGreaterThanOrEqual(7);
    for (const row of tables)
      expect(saving(row.data!.ours, row.data!.json), row.name).toBeGreaterThanOrEqual(
        CI_FLOOR_TABLE_DATA_SAVING,
      );
  });

  it('costs fewer prompt tokens in total than JSON function calling, by at least the CI floor', () => {
    expect(saving(corpus.billed.ours, corpus.billed.functionCalling)).toBeGreaterThanOrEqual(
      CI_FLOOR_SAVING_VS_FUNCTION_CALLING,
    );
  });

  it(`keeps the definitions of ${LARGE_TOOLSET_SIZE} functions within ${LARGE_TOOLSET_TOKEN_LIMIT} tokens`, () => {
    const toolset = measureLargeToolset();
    expect(toolset.functions).toBe(LARGE_TOOLSET_SIZE);
    expect(toolset.ours).toBeLessThanOrEqual(LARGE_TOOLSET_TOKEN_LIMIT);
    expect(toolset.ours).toBeLessThanOrEqual(toolset.budget);
  });
});
