import type { ErrorBody, FunctionDefinition } from '@app/contracts';
import type { FunctionCallOutcome, FunctionCallRequest, Functions } from '../ports';
import type { MemoryScope, MemoryStore } from './memory-store';
import { memoryTerms } from './memory-terms';

export const MEMORY_RETRIEVE = 'memory_retrieve';
export const MEMORY_EXPAND = 'memory_expand';
export const MEMORY_FUNCTION_NAMES = [MEMORY_EXPAND, MEMORY_RETRIEVE] as const;

const RETRIEVE_DEFAULT = 5;
const RETRIEVE_MAX = 20;
const WINDOW_DEFAULT = 2;
const WINDOW_MAX = 10;

export const MEMORY_FUNCTIONS: readonly FunctionDefinition[] = [
  {
    name: MEMORY_EXPAND,
    description:
      'The context of a remembered chunk: the chunks before and after it in the same run, and the goal the run started with. Pass the anchor a memory_retrieve chunk gave.',
    parameters: {
      type: 'object',
      properties: {
        run_id: { type: 'string', description: "The chunk's anchor.run_id." },
        iteration_index: { type: 'integer', minimum: 0, description: "The chunk's anchor.iteration_index." },
        segment_index: { type: 'integer', minimum: 0, description: "The chunk's anchor.segment_index." },
        window: {
          type: 'integer',
          minimum: 0,
          maximum: WINDOW_MAX,
          description: `Chunks to show on each side (default ${WINDOW_DEFAULT}).`,
        },
      },
      required: ['run_id', 'iteration_index', 'segment_index'],
    },
    provider: 'memory',
  },
  {
    name: MEMORY_RETRIEVE,
    description:
      'Search your long-term memory of earlier conversations with this user: the best-matching chunks (what was said, thought, called and answered), each with its relevance and anchor.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for.' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: RETRIEVE_MAX,
          description: `Chunks to return (default ${RETRIEVE_DEFAULT}).`,
        },
      },
      required: ['query'],
    },
    provider: 'memory',
  },
];

export function isMemoryFunction(name: string): boolean {
  return (MEMORY_FUNCTION_NAMES as readonly string[]).includes(name);
}

/**
 * A run's functions with its memory: `memory_retrieve` and `memory_expand` answered here, within
 * the run's scope, everything else by the host's caller. A memory function of the same name
 * elsewhere is hidden, so a run's memory is always its own.
 */
export class MemoryFunctions implements Functions {
  constructor(
    private readonly inner: Functions,
    private readonly store: MemoryStore,
    private readonly scope: MemoryScope,
  ) {}

  async catalogue(): Promise<readonly FunctionDefinition[]> {
    const others = (await this.inner.catalogue()).filter((fn) => !isMemoryFunction(fn.name));
    return [...others, ...MEMORY_FUNCTIONS].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  find(name: string): Promise<FunctionDefinition | undefined> {
    if (isMemoryFunction(name)) return Promise.resolve(MEMORY_FUNCTIONS.find((fn) => fn.name === name));
    return this.inner.find(name);
  }

  async call(request: FunctionCallRequest): Promise<FunctionCallOutcome> {
    if (!isMemoryFunction(request.name)) return this.inner.call(request);
    try {
      return request.name === MEMORY_RETRIEVE
        ? await this.retrieve(request.args)
        : await this.expand(request.args);
    } catch {
      return failure('unavailable', 'memory could not be read just now');
    }
  }

  private async retrieve(args: Record<string, unknown>): Promise<FunctionCallOutcome> {
    const terms = memoryTerms(String(args.query ?? ''));
    if (terms.length === 0) return failure('invalid_params', 'query: give at least one word to look for');
    const limit = bounded(args.limit, RETRIEVE_DEFAULT, 1, RETRIEVE_MAX);
    const chunks = await this.store.search(this.scope, terms, limit);
    return { status: 'success', result: { data: { chunks } } };
  }

  private async expand(args: Record<string, unknown>): Promise<FunctionCallOutcome> {
    const ref = {
      runId: String(args.run_id ?? ''),
      iterationIndex: bounded(args.iteration_index, 0, 0, Number.MAX_SAFE_INTEGER),
      segmentIndex: bounded(args.segment_index, 0, 0, Number.MAX_SAFE_INTEGER),
    };
    const window = bounded(args.window, WINDOW_DEFAULT, 0, WINDOW_MAX);
    const expansion = await this.store.expand(this.scope, ref, window);
    if (!expansion) return failure('not_found', `no remembered chunk at that anchor of run '${ref.runId}'`);
    return { status: 'success', result: { data: expansion } };
  }
}

function bounded(value: unknown, fallback: number, min: number, max: number): number {
  return typeof value === 'number' && Number.isInteger(value)
    ? Math.min(max, Math.max(min, value))
    : fallback;
}

function failure(code: ErrorBody['code'], message: string): FunctionCallOutcome {
  return { status: 'error', error: { code, message } };
}
