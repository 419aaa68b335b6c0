import type { ClientToolResult, FunctionResult } from '@app/contracts';

/**
 * The caller's results for the client calls its run paused on, by call id. The run is taken up
 * again from its journal and, when it reaches the reply that asked, answers those calls with them
 * (once) and goes on: one run, one trace, one cost.
 */
export class ClientResults {
  private readonly byId: Map<string, string>;
  private message?: string;

  /** `message`: what the caller wrote after its results, read with them. */
  constructor(results: ClientToolResult[], message?: string) {
    this.byId = new Map(results.map((result) => [result.tool_call_id, result.content]));
    this.message = message || undefined;
  }

  /** The caller's message, handed out once. */
  takeMessage(): string | undefined {
    const message = this.message;
    this.message = undefined;
    return message;
  }

  /** The results of every one of `ids`, handed out once; undefined unless each is answered. */
  take(ids: string[]): Map<string, FunctionResult> | undefined {
    if (ids.length === 0 || !ids.every((id) => this.byId.has(id))) return undefined;
    const taken = new Map(ids.map((id) => [id, clientResultOf(this.byId.get(id) ?? '')]));
    for (const id of ids) this.byId.delete(id);
    return taken;
  }
}

/** A caller's result: JSON is data (TOON-encoded for the model when cheaper); any other text a message. */
export function clientResultOf(content: string): FunctionResult {
  try {
    const data: unknown = JSON.parse(content);
    if (typeof data === 'object' && data !== null) return { data };
  } catch {
    // not JSON: the text itself is the result
  }
  return { message: content };
}
