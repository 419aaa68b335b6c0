/**
 * How deeply a JSON value a client sends may nest. Validation and the code after it walk values
 * recursively: a body nested thousands of levels deep would overflow the stack (a 500) instead of
 * being refused as the client's mistake. Real requests nest a few levels; function parameters a few
 * more.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests objects or arrays more than `max` levels deep; walked without recursion. */
export function nestedDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, depth] = next;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node as object))
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
  }
  return false;
}
