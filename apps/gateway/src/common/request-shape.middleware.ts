import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@app/contracts';
import { openAiError } from '../openai/openai-error.filter';
import { toHttpError } from './http-error.filter';

export const JSON_TYPES = ['application/json', 'application/*+json'];

/** The bits of express's router (v2) read here: its layers and, on a route's layer, the route. */
interface RouteLayer {
  match(path: string): unknown;
  route?: { _handlesMethod(method: string): boolean; _methods(): string[] };
}

/** In the error shape of the API the request is for: OpenAI's under `/v1/`, the platform's elsewhere. */
function send(req: Request, res: Response, error: AppError, headers: Record<string, string> = {}): void {
  const { status, body } = toHttpError(error);
  res
    .status(status)
    .set(headers)
    .json(req.path.startsWith('/v1/') ? openAiError(error).body : { error: body });
}

/** A request body that is not JSON is refused with what to send, instead of being read as absent. */
export function jsonBodiesOnly(req: Request, res: Response, next: NextFunction): void {
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody || req.is(JSON_TYPES)) return next();
  const sent = req.headers['content-type']
    ? `content-type: ${req.headers['content-type']}`
    : 'no content-type';
  send(
    req,
    res,
    new AppError(
      'unsupported_media_type',
      `the request body must be JSON sent with content-type: application/json (got ${sent})`,
    ),
  );
}

/**
 * 405 with an `Allow` header for a path that exists with other methods (Nest would answer 404
 * "Cannot PUT"). The routes are read from express's router on each request: Nest adds them at
 * start-up, after this middleware.
 */
export function methodNotAllowed(app: NestExpressApplication) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const router = (app.getHttpAdapter().getInstance() as unknown as { router: { stack: RouteLayer[] } })
      .router;
    const matching = router.stack.filter((layer) => layer.route && layer.match(req.path));
    if (matching.length === 0 || matching.some((layer) => layer.route!._handlesMethod(req.method))) {
      return next();
    }
    const allow = [...new Set(matching.flatMap((layer) => layer.route!._methods()))].sort();
    send(
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
