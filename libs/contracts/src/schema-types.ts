/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type DtoClass = Function;
