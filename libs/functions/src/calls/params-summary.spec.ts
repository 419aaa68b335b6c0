import { describe, expect, it } from 'vitest';
import { Redactor } from '@app/observability';
import { summarizeParams } from '@app/functions';

const redactor = new Redactor(['configured-secret-value']);
const redact = (text: string) => redactor.redact(text);

describe('summarizeParams', () => {
  it('shows keys with short values and the size of lists and objects', () => {
    expect(
      summarizeParams({ to: 'ops', days: 7, dry: false, ids: [1, 2, 3], meta: { a: 1, b: 2 } }, redact),
    ).toBe('to="ops", days=7, dry=false, ids=[3 items], meta={2 keys}');
  });

  it('never shows a secret: secret-looking keys, known token shapes and configured secrets', () => {
    const summary = summarizeParams(
      {
        password: 'hunter2',
        apiKey: 'x',
        url: 'https://h/?api_key=abcdef123',
        note: 'Bearer abcdefghijkl',
        text: 'configured-secret-value',
      },
      redact,
    );
    expect(summary).not.toMatch(/hunter2|abcdef123|abcdefghijkl|configured-secret-value/);
    expect(summary).toMatch(/password=\*\*\*, apiKey=\*\*\*/);
  });

  it('stays within its bound however large the params are', () => {
    const params = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'.repeat(500)]));
    const summary = summarizeParams(params, redact, 300);
    expect(summary.length).toBeLessThanOrEqual(300);
    expect(summarizeParams(params, redact, 10_000)).toMatch(/…\(\+30 more\)$/);
  });
});
