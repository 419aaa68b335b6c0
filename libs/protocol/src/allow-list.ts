// The one allow-list matcher: the run engine checks a model's call with it, and the provider checks
// the list every call carries with it again (defence in depth: neither can widen the other).

/** Whether `name` is allowed by an allow-list of names and `prefix*` patterns (`*` allows all). */
export function isAllowed(allowList: readonly string[], name: string): boolean {
  return allowList.some((entry) =>
    entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : entry === name,
  );
}

export function allowsEverything(allowList: readonly string[]): boolean {
  return allowList.includes('*');
}
