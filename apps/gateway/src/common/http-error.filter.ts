import { type ArgumentsHost, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Logger } from '@app/observability';
import { baseUrlOf, ErrorShapes } from './error-shapes';

/**
 * The one place where errors become HTTP responses: in the error shape of the door the route
 * belongs to (see `ErrorShapes`), `{error: {code, message, details}}` for the platform's own API.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(
    @Inject(Logger) private readonly logger: Logger,
    @Inject(ErrorShapes) private readonly shapes: ErrorShapes,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const req = http.getRequest<Request>();
    const { status, body, headers } = this.shapes.answer({ path: req.path, base: baseUrlOf(req) }, exception);
    if (status >= 500) this.logger.error('request failed', { status, err: exception });
    if (response.headersSent) {
      response.end();
      return;
    }
    if (headers) response.set(headers);
    response.status(status).json(body);
  }
}
