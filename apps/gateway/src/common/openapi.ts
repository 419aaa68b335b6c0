import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';

/**
 * The OpenAPI document at `/api/docs`, built from the controllers on the first request: the
 * generator costs ~17 MB of memory, which a gateway nobody asks for its docs should not pay.
 */
export function serveOpenApi(app: NestExpressApplication, version: string): void {
  let document: Promise<unknown> | undefined;
  app.use('/api/docs', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || (req.path !== '/' && req.path !== '')) return next();
    document ??= build(app, version);
    document.then(
      (doc) => res.json(doc),
      (err: unknown) => next(err),
    );
  });
}

async function build(app: NestExpressApplication, version: string): Promise<unknown> {
  const { DocumentBuilder, SwaggerModule } = await import('@nestjs/swagger');
  const config = new DocumentBuilder()
    .setTitle('AgentChassis gateway')
    .setDescription(
      'Chat with agents that call real functions; manage functions, tasks, sessions, runs and API keys.',
    )
    .setVersion(version)
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: "an API key: 'Authorization: Bearer ac_…'",
    })
    .addSecurityRequirements('bearer')
    .build();
  return SwaggerModule.createDocument(app, config);
}
