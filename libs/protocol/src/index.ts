/**
 * @app/protocol — how a model and AgentChassis talk about function calls. Pure TypeScript:
 * no I/O, no Nest, loadable by Node's type stripping (erasable syntax only, `import type`).
 *
 * Replies (model → agent):
 * - `parseAssistantReply(text, protocol = 'xml-toon')` never throws. It returns `calls` (with the
 *   prose around them as `thought`), `final` (a reply without any call) or `invalid`, whose
 *   `error` is written to be sent back to the model for its one repair round (`problem` is the
 *   same without the repair instructions: `XML_TOON_REPAIR`/`JSON_ACTION_REPAIR`, whose `{error}` it fills).
 *   xml-toon: `<call name="f">` with one `key: value` line per parameter and lists/objects as
 *   TOON lines in its body (call-body.ts), the form the prompt teaches; `<p>key: value</p>` (text
 *   over several lines), `<data type="toon|json">…</data>` and a JSON object body are read as
 *   well. Tolerant of prose, code fences, several calls, single quotes, raw `&`/`<`, CDATA, a
 *   missing `</call>`, JSON in a TOON block and TOON row counts that disagree with the rows sent.
 *   json-action: one `{"type":"action","tool":..,"args":{..}}` or
 *   `{"type":"final","answer":..}`, prose or a fence around it tolerated.
 * - `key: value` lines and `<p>` values are typed only where lossless (true/false/null, canonical numbers, JSON arrays
 *   and objects; CDATA is always text); the text as written is kept in `ParsedCall.raw` (always
 *   present for xml-toon, absent for json-action). The function's schema has the
 *   last word: call `applySchemaTypes(call, fn.parameters)` before validating, so
 *   a `string` parameter receives exactly the text the model wrote ("007", `{"a":1}`), and a
 *   `number`/`boolean` parameter receives a number/boolean when its text is one.
 * - `validateParams(fn.parameters, params)` is the one validator of parameters (JSON Schema,
 *   ajv): `{ ok: true, value }` with defaults filled, or `{ ok: false, errors: [{ path, message }] }`.
 * - `encodeCalls(calls)` renders calls the way a model should write them (few-shot examples,
 *   history replay); `parseAssistantReply(encodeCalls(calls))` gives them back.
 *
 * Results (agent → model), in these shapes:
 * - `encodeResult(name, { data?, markdown?, message? }, { format?, model?, maxLength?, paging? })`
 *   and `encodeError(name, message, { maxLength? })`. `data` must be JSON-serialisable (a cycle
 *   throws). Over `maxLength` a result is cut at structural boundaries and stays decodable.
 * - `encodeData(value, { format?, model? })`: TOON for uniform tables, else the cheapest of TOON,
 *   compact JSON and (rows whose fields vary) one TOON table with an empty cell, or `~`, for a
 *   missing field (`<data type="toon" absent="">`, sparse-table.ts) by the model's token count;
 *   `format` forces one. TOON is written one space a level.
 *
 * Prompts and cost:
 * - `buildSystemPrompt({ functions, protocol, instructions, definitionBudget? })`; `native` yields
 *   instructions only. Functions are TypeScript-like signatures; over `definitionBudget` tokens
 *   they are listed one line each and the model asks `function_describe` (answered by the caller
 *   with `describeFunction`) for a signature.
 * - `decodeResult(text)` reads a `<result>` back (tests, tooling): every value is recoverable,
 *   in results written now and in those written before (`status="success"`, two-space indents).
 * - `countTokens(text, model?)`: o200k_base, or cl100k_base for gpt-4 / gpt-3.5 era models.
 */
export { parseAssistantReply } from './reply-parser';
export { encodeCalls } from './xml-toon.codec';
export { JSON_ACTION_GUIDE, JSON_ACTION_REPAIR, XML_TOON_GUIDE, XML_TOON_REPAIR } from './guides';
export { applySchemaTypes } from './schema-types';
export { compileSchema, matchesType, validateParams } from './params-validator';
export { PARAMETER_TYPES } from './types';
export type { ParamError, ParamsValidation } from './params-validator';
export { encodeResult, encodeError } from './result.codec';
export { decodeResult } from './result-decoder';
export { encodeData } from './toon-data';
export { buildSystemPrompt, xmlToonExample } from './prompt';
export { describeFunction, describeFunctions, FUNCTION_DESCRIBE } from './function-catalog';
export type { CatalogOptions } from './function-catalog';
export type { SystemPromptOptions } from './prompt';
export { allowsEverything, isAllowed } from './allow-list';
export { countTokens, encodingForModel } from './tokens';
export type { TokenEncoding } from './tokens';
export type {
  DataEncodingOptions,
  DataFormat,
  DecodedResult,
  EncodedData,
  FunctionParameters,
  ParameterSchema,
  ParameterType,
  ParsedCall,
  ParsedReply,
  PromptFunction,
  PromptProtocol,
  ResultContent,
  ResultEncodingOptions,
  ResultPaging,
  ToolProtocol,
} from './types';
