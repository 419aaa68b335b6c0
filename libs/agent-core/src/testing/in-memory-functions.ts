import type { FunctionDefinition, FunctionResult } from '@app/contracts';
import type { FunctionCallOutcome, FunctionCallRequest, Functions } from '../ports';

export type InMemoryHandler = (
  args: Record<string, unknown>,
  request: FunctionCallRequest,
) => Promise<FunctionResult> | FunctionResult;

/**
 * Functions served in this process: a definition and a handler each. A handler that throws is the
 * call's `function_error`, as a provider reports a function that failed. Records every call, for tests.
 */
export class InMemoryFunctions implements Functions {
  readonly calls: FunctionCallRequest[] = [];
  private readonly functions = new Map<
    string,
    { definition: FunctionDefinition; handler: InMemoryHandler }
  >();

  add(definition: FunctionDefinition, handler: InMemoryHandler): this {
    this.functions.set(definition.name, { definition, handler });
    return this;
  }

  async catalogue(): Promise<readonly FunctionDefinition[]> {
    return [...this.functions.values()]
      .map((fn) => fn.definition)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async find(name: string): Promise<FunctionDefinition | undefined> {
    return this.functions.get(name)?.definition;
  }

  async call(request: FunctionCallRequest): Promise<FunctionCallOutcome> {
    this.calls.push(request);
    const fn = this.functions.get(request.name);
    if (!fn)
      return {
        status: 'error',
        error: { code: 'not_found', message: `function '${request.name}' does not exist` },
      };
    try {
      return { status: 'success', result: await fn.handler(request.args, request) };
    } catch (err) {
      return { status: 'error', error: { code: 'function_error', message: (err as Error).message } };
    }
  }
}
