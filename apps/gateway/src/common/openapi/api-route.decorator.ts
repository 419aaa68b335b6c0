import { SetMetadata } from '@nestjs/common';
import type { DtoClass, JsonSchema } from '@app/contracts';

export const API_ROUTE = 'agentchassis:api-route';

/** How one route appears in the OpenAPI document; the schemas come from the DTO classes named here. */
export interface RouteDoc {
  summary: string;
  /** The group the UI shows it in; by default the segment after `/api/v1/`, else `platform`. */
  tag?: string;
  description?: string;
  /** The JSON body's DTO (validated with `parseDto`). */
  body?: DtoClass;
  /** Request headers the route reads (beyond authorization and content negotiation): name → description. */
  headers?: Record<string, string>;
  /** The query string's DTO. */
  query?: DtoClass;
  /** The success answer's DTO, `[Dto]` for a JSON array, `null` for none (204). */
  response?: DtoClass | [DtoClass] | null;
  /** The success status when the handler sets it itself (`@Res()`); else `@HttpCode`, or Nest's default. */
  status?: number;
  /** Other media types of the success answer, e.g. `text/event-stream` or `text/plain`. */
  content?: Record<string, { schema: JsonSchema }>;
  /** Server-sent events the route streams instead (`Accept: text/event-stream`): name → data's DTO, if any. */
  events?: Record<string, DtoClass | undefined>;
  /** For an `@All()` handler: the methods it answers (else all of GET, POST, PUT, PATCH, DELETE). */
  methods?: ('get' | 'post' | 'put' | 'patch' | 'delete')[];
  /** A second success answer, 202: the request was taken, its work goes on (and its DTO). */
  accepted?: { description: string; response: DtoClass };
  /** Error statuses beyond those every route of its kind has (e.g. 409). */
  errors?: Record<number, string>;
  /** The error body's DTO when not the platform's `ErrorResponse` (the OpenAI-compatible API's own shape). */
  errorBody?: DtoClass;
}

/**
 * Documents a route in `/api/openapi.json`. Every route needs one: the gateway's OpenAPI test fails
 * naming a served route that has none.
 */
export const ApiRoute = (doc: RouteDoc) => SetMetadata(API_ROUTE, doc);
