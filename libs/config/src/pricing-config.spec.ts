import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@app/config';

function withFile(text: string): { AC_CONFIG: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'ac-pricing-')), 'agentchassis.yaml');
  writeFileSync(file, text);
  return { AC_CONFIG: file };
}

describe('pricing and cost budgets in the configuration', () => {
  it('reads the price table per model and the daily cost budget, none by default', () => {
    expect(loadConfig({}).pricing).toEqual({});
    expect(loadConfig({}).security.daily_cost_budget_usd).toBeUndefined();
    const config = loadConfig({
      ...withFile(
        'pricing:\n  gpt-4o-mini: {input_per_mtok: 0.15, output_per_mtok: 0.6}\n  local: {input_per_mtok: 0, output_per_mtok: 0}\n',
      ),
      DAILY_COST_BUDGET_USD_PER_KEY: '2.5',
    });
    expect(config.pricing).toEqual({
      'gpt-4o-mini': { input_per_mtok: 0.15, output_per_mtok: 0.6 },
      local: { input_per_mtok: 0, output_per_mtok: 0 },
    });
    expect(config.security.daily_cost_budget_usd).toBe(2.5);
    expect(config.sections).not.toHaveProperty('pricing');
  });

  it('reads the example configuration, prices included', () => {
    const config = loadConfig({ AC_CONFIG: join(process.cwd(), 'config/agentchassis.example.yaml') });
    expect(config.pricing['gpt-4o-mini']).toEqual({
      input_per_mtok: 0.15,
      output_per_mtok: 0.6,
      cached_input_per_mtok: 0.075,
    });
  });

  it("reads the prompt cache's prices, each optional", () => {
    const config = loadConfig(
      withFile(
        'pricing:\n  claude: {input_per_mtok: 3, output_per_mtok: 15, cached_input_per_mtok: 0.3, cache_write_per_mtok: 3.75}\n  mini: {input_per_mtok: 0.75, output_per_mtok: 4.5, cached_input_per_mtok: 0.075}\n',
      ),
    );
    expect(config.pricing).toEqual({
      claude: {
        input_per_mtok: 3,
        output_per_mtok: 15,
        cached_input_per_mtok: 0.3,
        cache_write_per_mtok: 3.75,
      },
      mini: { input_per_mtok: 0.75, output_per_mtok: 4.5, cached_input_per_mtok: 0.075 },
    });
  });

  it('names every bad price at once', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({
        ...withFile(
          'pricing:\n  a: {input_per_mtok: cheap, output_per_mtok: 1}\n  b: {input_per_mtok: -1}\n  c: 3\n  d: {input_per_mtok: 1, output_per_mtok: 1, cached: 2}\n  e: {input_per_mtok: 1, output_per_mtok: 1, cache_write_per_mtok: free}\n',
        ),
        DAILY_COST_BUDGET_USD_PER_KEY: 'lots',
      });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems.map((p) => p.key)).toEqual([
      'DAILY_COST_BUDGET_USD_PER_KEY (security.daily_cost_budget_usd)',
      'pricing.a.input_per_mtok',
      'pricing.b.input_per_mtok',
      'pricing.b.output_per_mtok',
      'pricing.c',
      'pricing.d.cached',
      'pricing.e.cache_write_per_mtok',
    ]);
    expect(error!.message).toContain(
      "pricing.a.input_per_mtok: must be a number of USD per million tokens, got 'cheap'",
    );
  });
});
