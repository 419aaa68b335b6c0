/** Whether `name` is allowed by an allow-list of names and `prefix*` patterns (`*` allows all). */
export function isAllowed(allowList: readonly string[], name: string): boolean {
  return allowList.some((entry) =>
    entry.endsWith('*') ? name.startsWith(entry.slice(0, -1)) : entry === name,
  );
}

export function allowsEverything(allowList: readonly string[]): boolean {
  return allowList.includes('*');
}
