import { describe, expect, it } from 'vitest';
import { traceUrl } from './trace-url';

describe('traceUrl', () => {
  it('puts the trace id into the template', () => {
    expect(traceUrl('http://jaeger:16686/trace/{trace_id}', 'abc123')).toBe(
      'http://jaeger:16686/trace/abc123',
    );
    expect(traceUrl('https://tempo/explore?traceId={trace_id}&x={trace_id}', 'f0')).toBe(
      'https://tempo/explore?traceId=f0&x=f0',
    );
  });

  it('is null without a template or without a trace', () => {
    expect(traceUrl(undefined, 'abc')).toBeNull();
    expect(traceUrl('http://x/{trace_id}', null)).toBeNull();
  });
});
