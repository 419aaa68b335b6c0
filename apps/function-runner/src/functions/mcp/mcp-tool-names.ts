import { FUNCTION_NAME_PATTERN } from '@app/contracts';

const MAX_NAME = 64;

export interface ToolRef {
  server: string;
  prefix: string;
  tool: string;
}

export interface NamedTool<T extends ToolRef> {
  ref: T;
  name: string;
  /** Set when the plain name was taken: what it collided with. */
  collided?: string;
}

/** `<prefix>_<tool>` in the platform's function-name alphabet (lower-case snake_case, ≤ 64). */
export function functionNameOf(prefix: string, tool: string): string {
  let name = `${prefix}_${tool}`
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/_$/, '');
  if (!/^[a-z]/.test(name)) name = `mcp_${name}`;
  return name.slice(0, MAX_NAME).replace(/_$/, '');
}

/**
 * Names every tool, deterministically whatever order servers answered in: tools are taken in
 * (server, tool) order, and a name already taken (by an earlier tool or by a function of another
 * kind) gets the first free numeric suffix `_2`, `_3`, … Nothing is dropped.
 */
export function nameTools<T extends ToolRef>(tools: T[], taken: ReadonlySet<string>): NamedTool<T>[] {
  const used = new Set(taken);
  const sorted = [...tools].sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool));
  return sorted.map((ref) => {
    const base = functionNameOf(ref.prefix, ref.tool);
    let name = base;
    for (let n = 2; used.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, MAX_NAME - suffix.length)}${suffix}`;
    }
    used.add(name);
    if (!FUNCTION_NAME_PATTERN.test(name)) throw new Error(`cannot name the tool '${ref.tool}'`);
    return name === base ? { ref, name } : { ref, name, collided: base };
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
