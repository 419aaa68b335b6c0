import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { NotFoundError } from '@app/contracts';
import { ApiRoute } from '../common/openapi/api-route.decorator';
import { ConsoleFiles, SECURITY_HEADERS } from './console-files';

const NOT_BUILT =
  'The web console is not built: run `npm run build` (it writes dist/console), then reload this page.\n';

/** The web console: a static page and its hashed files; public (common/scope-policy.ts), its API calls carry the key. */
@Controller()
export class ConsoleController {
  constructor(@Inject(ConsoleFiles) private readonly files: ConsoleFiles) {}

  @Get()
  @ApiRoute({
    summary: 'The web console (HTML)',
    tag: 'console',
    content: { 'text/html': { schema: { type: 'string' } } },
    errors: { 503: 'unavailable: the console is not built (text/plain)' },
  })
  page(@Res() res: Response): void {
    const html = this.files.index();
    res.set(SECURITY_HEADERS).set('cache-control', 'no-cache');
    if (html === undefined) {
      res.status(503).type('text/plain').send(NOT_BUILT);
      return;
    }
    res.type('html').send(html);
  }

  @Get('assets/:file')
  @ApiRoute({
    summary: 'A file of the web console (hashed name: cached for a year, immutable)',
    tag: 'console',
    content: {
      'application/javascript': { schema: { type: 'string' } },
      'text/css': { schema: { type: 'string' } },
    },
  })
  asset(@Param('file') name: string, @Res() res: Response): void {
    const file = this.files.asset(name);
    if (!file) throw new NotFoundError('file', name.slice(0, 64));
    res
      .set(SECURITY_HEADERS)
      .set('cache-control', 'public, max-age=31536000, immutable')
      .sendFile(file, { cacheControl: false, lastModified: false });
  }
}
