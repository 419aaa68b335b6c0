import { Readable } from 'node:stream';
import type { Request, Response } from 'express';

/** The express request as a web-standard `Request` (its body already parsed: given apart to whoever reads it). */
export function webRequestOf(req: Request): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  return new globalThis.Request(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`, {
    method: req.method,
    headers,
  });
}

/** Writes a web-standard `Response` (JSON, or a stream) on the express response. */
export async function sendWebResponse(res: Response, response: globalThis.Response): Promise<void> {
  res.status(response.status);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream);
  res.once('close', () => body.destroy());
  await new Promise<void>((resolve, reject) => {
    body.once('error', reject);
    res.once('close', resolve);
    body.pipe(res);
  });
}
