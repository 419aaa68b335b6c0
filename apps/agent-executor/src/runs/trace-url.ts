/** A trace's page in the operator's tracing UI: `{trace_id}` in the template replaced by the id. */
export function traceUrl(template: string | undefined, traceId: string | null): string | null {
  if (!template || !traceId) return null;
  return template.replaceAll('{trace_id}', encodeURIComponent(traceId));
}
