import { FunctionFailedError, type FunctionResult } from '@app/contracts';

type Block = Record<string, unknown> & { type?: string };

export interface ToolCallResult {
  content?: Block[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * An MCP tool result as a FunctionResult: text blocks become the message, `structuredContent`
 * the data (which the model gets TOON-encoded; a text block that only repeats it as JSON is
 * dropped), images, audio and resources a one-line note of their type and size. `isError`
 * becomes a function error, which goes back to the model like any other and is never retried.
 */
export function toFunctionResult(result: ToolCallResult): FunctionResult {
  const structured = result.structuredContent;
  const lines = (result.content ?? [])
    .map((block) => render(block))
    .filter((line) => line !== '' && !(structured && repeats(line, structured)));
  const text = lines.join('\n\n');
  if (result.isError) throw new FunctionFailedError(text || 'the MCP tool reported an error');
  const out: FunctionResult = {};
  if (structured !== undefined) out.data = structured;
  if (text) out.message = text;
  return out;
}

function render(block: Block): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '');
    case 'image':
    case 'audio':
      return `[${block.type} ${String(block.mimeType ?? 'unknown type')}, ${base64Bytes(block.data)} bytes]`;
    case 'resource': {
      const resource = (block.resource ?? {}) as Record<string, unknown>;
      const size =
        typeof resource.text === 'string'
          ? `${resource.text.length} characters`
          : `${base64Bytes(resource.blob)} bytes`;
      return `[resource ${String(resource.uri ?? '')} ${String(resource.mimeType ?? '')}, ${size}]`.replace(
        /\s+,/,
        ',',
      );
    }
    case 'resource_link':
      return `[resource link ${String(block.uri ?? '')}${block.name ? ` (${String(block.name)})` : ''}]`;
    default:
      return `[${String(block.type ?? 'unknown')} content]`;
  }
}

function base64Bytes(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function repeats(text: string, structured: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(structured);
  } catch {
    return false;
  }
}
