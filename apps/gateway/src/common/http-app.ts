import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { PlatformConfig } from '@app/config';
import { ErrorShapes } from './error-shapes';
import { bodyParserError } from './http-error';
import { httpObservability } from './http-observability.middleware';
import {
  JSON_TYPES,
  jsonBodiesOnly,
  jsonNotTooDeep,
  methodNotAllowed,
  sendError,
} from './request-shape.middleware';

export const MAX_BODY_BYTES = 1_048_576;

/** HTTP settings of the gateway: JSON bodies with a size limit, parse errors as JSON errors. */
export async function configureHttp(app: NestExpressApplication, config: PlatformConfig): Promise<string[]> {
  const shapes = app.get(ErrorShapes);
  app.disable('x-powered-by');
  app.use(httpObservability);
  app.use(methodNotAllowed(app, shapes));
  app.use(jsonBodiesOnly(shapes));
  app.use(express.json({ limit: MAX_BODY_BYTES, type: JSON_TYPES }));
  app.use(jsonNotTooDeep(shapes));
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!bodyParserError(err)) return next(err);
    sendError(shapes, req, res, err);
  });
  await app.listen(config.gateway.port, config.gateway.host);
  const address = app.getHttpServer().address() as { port: number } | null;
  return [`http://${config.gateway.host}:${address?.port ?? config.gateway.port}`];
}
