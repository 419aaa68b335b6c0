import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AppError, BadRequestError, MAX_JSON_DEPTH, nestedDeeperThan } from '@app/contracts';
import { baseUrlOf, type ErrorShapes } from './error-shapes';

export const JSON_TYPES = ['application/json', 'application/*+json'];
/** What clients send nearly always: taken as JSON without parsing the media type (`req.is`). */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8']);

/** The bits of express's router (v2) read here: its layers and, on a route's layer, the route. */
interface RouteLayer {
  match(path: string): unknown;
  route?: { _handlesMethod(method: string): boolean; _methods(): string[] };
}

/** In the error shape of the door the request is for (the platform's for its own API). */
export function sendError(
  shapes: ErrorShapes,
  req: Request,
  res: Response,
  error: unknown,
  extra: Record<string, string> = {},
): void {
  const { status, body, headers } = shapes.answer({ path: req.path, base: baseUrlOf(req) }, error);
  res
    .status(status)
    .set({ ...extra, ...headers })
    .json(body);
}

/** A request body that is not JSON is refused with what to send, instead of being read as absent. */
export const jsonBodiesOnly = (shapes: ErrorShapes) => (req: Request, res: Response, next: NextFunction) => {
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody || PLAIN_JSON.has(req.headers['content-type'] ?? '') || req.is(JSON_TYPES)) return next();
  const sent = req.headers['content-type']
    ? `content-type: ${req.headers['content-type']}`
    : 'no content-type';
  sendError(
    shapes,
    req,
    res,
    new AppError(
      'unsupported_media_type',
      `the request body must be JSON sent with content-type: application/json (got ${sent})`,
    ),
  );
};

/** A JSON body nested deeper than any request needs is refused before anything walks it. */
export const jsonNotTooDeep = (shapes: ErrorShapes) => (req: Request, res: Response, next: NextFunction) => {
  if (!nestedDeeperThan(req.body)) return next();
  const error = new BadRequestError(`the request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
  sendError(shapes, req, res, error);
};

const SERVED_KEPT = 1_000;

/**
 * 405 with an `Allow` header for a path that exists with other methods (Nest would answer 404
 * "Cannot PUT"). The routes are read from express's router, where Nest adds them at start-up after
 * this middleware: indexed by method at the first request (again should the router grow), so a
 * request that one of its method's routes serves is matched against those routes only.
 */
export function methodNotAllowed(app: NestExpressApplication, shapes: ErrorShapes) {
  let index:
    | { size: number; routes: RouteLayer[]; byMethod: Map<string, RouteLayer[]>; served: Set<string> }
    | undefined;
  const routesOf = () => {
    const { stack } = (app.getHttpAdapter().getInstance() as unknown as { router: { stack: RouteLayer[] } })
      .router;
    if (index?.size !== stack.length) {
      const routes = stack.filter((layer) => layer.route);
      index = { size: stack.length, routes, byMethod: new Map(), served: new Set() };
    }
    return index;
  };
  const servingMethod = (method: string) => {
    const { routes, byMethod } = routesOf();
    let serving = byMethod.get(method);
    if (!serving)
      byMethod.set(method, (serving = routes.filter((layer) => layer.route!._handlesMethod(method))));
    return serving;
  };
  // A method and path found served, kept (bounded: paths with ids in them are many), so a route's
  // patterns are not matched twice a request, here and by the router.
  const isServed = (method: string, path: string) => {
    const { served } = routesOf();
    const key = `${method} ${path}`;
    if (served.has(key)) return true;
    if (!servingMethod(method).some((layer) => layer.match(path))) return false;
    if (served.size >= SERVED_KEPT) served.clear();
    served.add(key);
    return true;
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    if (isServed(req.method, req.path)) return next();
    const matching = routesOf().routes.filter((layer) => layer.match(req.path));
    if (matching.length === 0) return next();
    const allow = [...new Set(matching.flatMap((layer) => layer.route!._methods()))].sort();
    sendError(
      shapes,
      req,
      res,
      new AppError(
        'method_not_allowed',
        `${req.method} is not allowed on ${req.path}; use ${allow.join(', ')}`,
        {
          allow,
        },
      ),
      { Allow: allow.join(', ') },
    );
  };
}
