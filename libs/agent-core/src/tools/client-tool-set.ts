import type { ClientTool, ClientToolCall } from '@app/contracts';
import {
  applySchemaTypes,
  PARAMETER_TYPES,
  type FunctionParameters,
  type ParameterSchema,
  type ParameterType,
  type PromptFunction,
} from '@app/protocol';
import type { ToolCall } from './tool-call';

const TYPES = new Set<string>(PARAMETER_TYPES);
/** A nested schema is shown to the model as compact JSON, cut to this many characters. */
const NESTED_SCHEMA_CHARS = 600;

/**
 * The tools a caller runs itself, for one run: described to the model like the agent's own
 * functions (from their JSON Schema), and recognised in its replies so the run can pause for them.
 */
export class ClientToolSet {
  private readonly byName: Map<string, PromptFunction>;

  constructor(tools: ClientTool[]) {
    this.byName = new Map(tools.map((tool) => [tool.name, toPromptFunction(tool)]));
  }

  get size(): number {
    return this.byName.size;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  functions(): PromptFunction[] {
    return [...this.byName.values()];
  }

  calledIn(calls: ToolCall[]): boolean {
    return calls.some((call) => this.has(call.name));
  }

  /** The ids of the client calls among a reply's calls (each id names the run and the call's place). */
  callIds(calls: ToolCall[], runId: string): string[] {
    return calls.flatMap((call, index) => (this.has(call.name) ? [clientCallId(runId, index)] : []));
  }

  /** The call as the caller receives it: parameters typed by the tool's schema, id naming the run. */
  pendingCall(call: ToolCall, runId: string, index: number): ClientToolCall {
    const fn = this.byName.get(call.name);
    const args = fn ? applySchemaTypes(call, fn.parameters) : call.params;
    return { id: clientCallId(runId, index), name: call.name, arguments: args };
  }
}

export function clientCallId(runId: string, index: number): string {
  return `call_${runId}_${index}`;
}

/** JSON Schema (any dialect a client sends) into the prompt's flat parameter list. */
export function toPromptFunction(tool: ClientTool): PromptFunction {
  const schema = tool.parameters ?? {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  const parameters: FunctionParameters = {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, toParameter(property)]),
    ),
    required,
  };
  return { name: tool.name, description: tool.description ?? '', parameters };
}

function toParameter(property: unknown): ParameterSchema {
  const schema = isRecord(property) ? property : {};
  const type = typeOf(schema.type);
  const parameter: ParameterSchema = { type };
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const nested = nestedShape(schema, type);
  if (description || nested) parameter.description = [description, nested].filter(Boolean).join('; ');
  if (Array.isArray(schema.enum)) parameter.enum = schema.enum;
  if (typeof schema.minimum === 'number') parameter.minimum = schema.minimum;
  if (typeof schema.maximum === 'number') parameter.maximum = schema.maximum;
  if (schema.default !== undefined) parameter.default = schema.default;
  if (type === 'array' && isRecord(schema.items)) parameter.items = { type: typeOf(schema.items.type) };
  return parameter;
}

/** `["string","null"]` is a string; anything unknown is described as an object. */
function typeOf(type: unknown): ParameterType {
  const candidates = Array.isArray(type) ? type : [type];
  const found = candidates.find((t): t is ParameterType => TYPES.has(t));
  return found ?? 'object';
}

/** Objects and arrays of objects keep their shape for the model, as compact JSON (in the signature's `(…)`). */
function nestedShape(schema: Record<string, unknown>, type: ParameterType): string | undefined {
  const inner =
    type === 'object' ? schema.properties : isRecord(schema.items) ? schema.items.properties : undefined;
  if (!isRecord(inner)) return undefined;
  const text = JSON.stringify(type === 'object' ? { properties: inner } : { items: schema.items });
  return `schema: ${text.length > NESTED_SCHEMA_CHARS ? `${text.slice(0, NESTED_SCHEMA_CHARS)}…` : text}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
