import type { FunctionDefinition } from '@app/contracts';
import type { AgentFunction } from '../agent-function';
import { describeFunction } from '../definition';

export interface RegisteredFunction {
  fn: AgentFunction;
  definition: FunctionDefinition;
  /** The group it came from (`builtin`, `custom`, …), also the definition's `provider`. */
  group: string;
}

export interface Rejection {
  name: string;
  reason: string;
}

/**
 * The functions one provider serves, in named groups that are replaced as a whole (built-ins once,
 * custom functions on every plugin change). A name belongs to the group that claimed it first.
 */
export class FunctionRegistry {
  private readonly functions = new Map<string, RegisteredFunction>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly defaultTimeoutMs: number) {}

  /** Replaces the functions of `group`; returns the ones refused and why. */
  setGroup(group: string, fns: AgentFunction[]): Rejection[] {
    const rejected: Rejection[] = [];
    const next = new Map<string, RegisteredFunction>();
    for (const fn of fns) {
      const owner = this.functions.get(fn.name);
      if (owner && owner.group !== group)
        rejected.push({ name: fn.name, reason: `the name belongs to a ${owner.group} function` });
      else if (next.has(fn.name)) rejected.push({ name: fn.name, reason: 'the name is used twice' });
      else this.tryAdd(next, fn, group, rejected);
    }
    const changed = this.replace(group, next);
    if (changed) for (const listener of this.listeners) listener();
    return rejected;
  }

  get(name: string): RegisteredFunction | undefined {
    return this.functions.get(name);
  }

  names(): string[] {
    return [...this.functions.keys()];
  }

  definitions(): FunctionDefinition[] {
    return [...this.functions.values()].map((f) => f.definition).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Called after every change; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tryAdd(
    into: Map<string, RegisteredFunction>,
    fn: AgentFunction,
    group: string,
    rejected: Rejection[],
  ): void {
    try {
      into.set(fn.name, { fn, group, definition: describeFunction(fn, group, this.defaultTimeoutMs) });
    } catch (err) {
      rejected.push({ name: String(fn.name), reason: (err as Error).message });
    }
  }

  private replace(group: string, next: Map<string, RegisteredFunction>): boolean {
    let changed = false;
    for (const [name, entry] of this.functions) {
      if (entry.group === group && next.get(name)?.fn !== entry.fn) {
        this.functions.delete(name);
        changed = true;
      }
    }
    for (const [name, entry] of next) {
      if (this.functions.get(name)?.fn !== entry.fn) changed = true;
      this.functions.set(name, entry);
    }
    return changed;
  }
}
