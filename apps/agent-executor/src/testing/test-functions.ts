import type { Bus } from '@app/bus';
import {
  type FnCatalogReply,
  type FnExecReply,
  type FnExecRequest,
  type FunctionDefinition,
  type FunctionResult,
  type ParameterSchema,
  Routes,
} from '@app/contracts';

export interface TestFunction {
  name: string;
  params?: Record<string, ParameterSchema>;
  required?: string[];
  /** Throw to make the call fail with `function_error`. */
  run: (params: Record<string, unknown>) => FunctionResult | Promise<FunctionResult>;
}

export interface ServedFunctions {
  /** Every request received, in arrival order, with its arrival time (epoch ms). */
  calls: { name: string; request: FnExecRequest; at: number }[];
  stop(): void;
}

/** Serves small functions from the test process over the real bus, as a function provider would. */
export function serveFunctions(bus: Bus, functions: TestFunction[]): ServedFunctions {
  const calls: ServedFunctions['calls'] = [];
  const definitions: FunctionDefinition[] = functions.map((fn) => ({
    name: fn.name,
    description: `Test function ${fn.name}.`,
    parameters: { type: 'object', properties: fn.params ?? {}, required: fn.required ?? [] },
    provider: 'test',
  }));
  const catalog: FnCatalogReply = { provider: 'test', instance: 'test-process', functions: definitions };
  const subscriptions = [
    bus.serve(Routes.fnCatalog, () => catalog),
    ...functions.map((fn) =>
      bus.serve(Routes.fnExec(fn.name), async (request): Promise<FnExecReply> => {
        calls.push({ name: fn.name, request, at: Date.now() });
        const started = performance.now();
        try {
          const result = await fn.run(request.params);
          return { status: 'success', result, elapsed_ms: Math.round(performance.now() - started) };
        } catch (err) {
          const message = (err as Error).message;
          return {
            status: 'error',
            error: { code: 'function_error', message },
            elapsed_ms: Math.round(performance.now() - started),
          };
        }
      }),
    ),
  ];
  return { calls, stop: () => subscriptions.forEach((s) => s.unsubscribe()) };
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
