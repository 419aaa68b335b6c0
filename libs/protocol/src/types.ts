/** The two text protocols a model can speak to call functions. */
export type ToolProtocol = 'xml-toon' | 'json-action';

/** What a system prompt can be built for; `native` uses the provider's own function calling. */
export type PromptProtocol = ToolProtocol | 'native';

export interface ParsedCall {
  name: string;
  params: Record<string, unknown>;
  /**
   * The text of each `<p>` value exactly as the model wrote it (entities decoded, CDATA
   * unwrapped), before any typing. Absent for json-action calls, whose values are JSON already.
   */
  raw?: Record<string, string>;
}

export type ParsedReply =
  | { kind: 'calls'; calls: ParsedCall[]; thought?: string }
  | { kind: 'final'; answer: string }
  /** `problem`: what could not be read; `error`: the English repair message built around it. */
  | { kind: 'invalid'; error: string; problem: string };

export const PARAMETER_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

/** One parameter of a function, in JSON Schema: what the prompt shows and the validator checks. */
export interface ParameterSchema {
  type: ParameterType;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  /** A string's form and length. */
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  /** An array's items: a type, or a whole schema (an object's shape, an enum, bounds). */
  items?: ParameterSchema;
  /** An object's fields, when its shape is known. */
  properties?: Record<string, ParameterSchema>;
  required?: string[];
}

export interface FunctionParameters {
  type: 'object';
  properties: Record<string, ParameterSchema>;
  required?: string[];
}

/** The structural shape of a function definition handed to the prompt builder. */
export interface PromptFunction {
  name: string;
  description: string;
  parameters: FunctionParameters;
}

/** What a function returned, as a `Result` (data, markdown, message). */
export interface ResultContent {
  data?: unknown;
  markdown?: string;
  message?: string;
}

export type DataFormat = 'toon' | 'json';

export interface EncodedData {
  type: DataFormat;
  text: string;
  /** Fields taken out of every row of the table in `text`, each with its one value. */
  common?: Record<string, unknown>;
  /** The cell text that stands for a field a row does not have (a table of rows whose fields vary). */
  absent?: string;
}

export interface DataEncodingOptions {
  /** `auto` (default) picks TOON for uniform tables, else the cheaper of TOON and compact JSON. */
  format?: DataFormat | 'auto';
  /** Model whose tokenizer decides "cheaper"; o200k_base when omitted. */
  model?: string;
  /**
   * Told what the chosen encoding saves against compact JSON of the same data, in tokens (0 when
   * JSON was chosen), as a function to call when convenient: where JSON was one of the candidates
   * it only subtracts the counts the choice made; for a uniform table or `format: 'toon'` (JSON
   * not compared) it encodes the data as JSON and counts it then. Not told for `format: 'json'`.
   */
  onSaved?: (saved: () => number) => void;
}

export interface ResultEncodingOptions extends DataEncodingOptions {
  /**
   * The most characters the encoded result may take. Over it, the result is cut where its
   * structure allows (whole rows, items, keys, lines) and stays well-formed; a `<note>` says what
   * was left out and how to get it.
   */
  maxLength?: number;
  /** The function pages its results: how to ask for the rows after the ones shown. */
  paging?: ResultPaging;
}

export interface ResultPaging {
  /** The parameter that skips rows, e.g. `offset`. */
  offsetParam: string;
  /** Its value in the call that produced this result. */
  offset: number;
}

/** A `<result>` element read back: what the model saw, as values. */
export interface DecodedResult {
  name: string;
  status: 'success' | 'error';
  message?: string;
  data?: unknown;
  markdown?: string;
  error?: string;
  note?: string;
}
