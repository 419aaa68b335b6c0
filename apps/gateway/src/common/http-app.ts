import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { PlatformConfig } from '@app/config';
import { bodyParserError } from './http-error.filter';
import { httpObservability } from './http-observability.middleware';
import { openAiError } from '../openai/openai-error.filter';
import { JSON_TYPES, jsonBodiesOnly, jsonNotTooDeep, methodNotAllowed } from './request-shape.middleware';

export const MAX_BODY_BYTES = 1_048_576;

/** HTTP settings of the gateway: JSON bodies with a size limit, parse errors as JSON errors. */
export async function configureHttp(app: NestExpressApplication, config: PlatformConfig): Promise<string[]> {
  app.disable('x-powered-by');
  app.use(httpObservability);
  app.use(methodNotAllowed(app));
  app.use(jsonBodiesOnly);
  app.use(express.json({ limit: MAX_BODY_BYTES, type: JSON_TYPES }));
  app.use(jsonNotTooDeep);
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    const mapped = bodyParserError(err);
    if (!mapped) return next(err);
    if (req.path.startsWith('/v1/')) res.status(mapped.status).json(openAiError(err).body);
    else res.status(mapped.status).json({ error: mapped.body });
  });
  await app.listen(config.gateway.port, config.gateway.host);
  const address = app.getHttpServer().address() as { port: number } | null;
  return [`http://${config.gateway.host}:${address?.port ?? config.gateway.port}`];
}
