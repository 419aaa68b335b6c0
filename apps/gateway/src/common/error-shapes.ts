import { Injectable } from '@nestjs/common';
import type { ErrorBody } from '@app/contracts';
import { toHttpError } from './http-error';

/** An error as the platform answers it: its status and `{code, message, details}`. */
export interface HttpError {
  status: number;
  body: ErrorBody;
}

/** An error as one door's protocol answers it. */
export interface ShapedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** The request an error answers: its path, and the gateway's URL as the client reached it. */
export interface ErrorRequest {
  path: string;
  base: string;
}

/** How one door writes an error: from the platform's status and body (and the exception, for its class). */
export type ErrorShape = (error: HttpError, exception: unknown, request: ErrorRequest) => ShapedError;

/** The gateway's URL as a client reached it (its `Host`), for links in an answer. */
export function baseUrlOf(req: { protocol: string; get(name: string): string | undefined }): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** The platform's own shape: `{error: {code, message, details}}`. */
export const platformErrorShape: ErrorShape = ({ status, body }) => ({ status, body: { error: body } });

/**
 * Which error shape answers which route: each door registers its own under its path prefix
 * (`/v1/` for OpenAI's, `/v1/messages` for Anthropic's, `/mcp` for JSON-RPC), the longest prefix
 * wins, and every other route answers in the platform's shape. The exception filter and the
 * middleware that runs before the routes (body parsing, media type, method) both ask here, so
 * `common/` knows no door.
 */
@Injectable()
export class ErrorShapes {
  private readonly shapes: { prefix: string; shape: ErrorShape }[] = [];

  register(prefix: string, shape: ErrorShape): void {
    this.shapes.push({ prefix, shape });
    this.shapes.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** The error as the route at `path` answers it; `Retry-After` on a 429 that says when to retry. */
  answer(request: ErrorRequest, exception: unknown): ShapedError {
    const error = toHttpError(exception);
    const { path } = request;
    const shape = this.shapes.find(({ prefix }) => path === prefix || path.startsWith(prefix))?.shape;
    const shaped = (shape ?? platformErrorShape)(error, exception, request);
    const retryAfter = (error.body.details as { retry_after_s?: number } | undefined)?.retry_after_s;
    if (shaped.status !== 429 || !retryAfter) return shaped;
    return { ...shaped, headers: { 'Retry-After': String(retryAfter), ...shaped.headers } };
  }
}
