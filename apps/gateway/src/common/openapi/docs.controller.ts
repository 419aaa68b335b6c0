import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { NotFoundError } from '@app/contracts';
import { ApiRoute } from './api-route.decorator';
import { DocsService } from './docs.service';
import { UI_PAGE, uiAsset } from './swagger-ui-page';

const HTML = { 'text/html': { schema: { type: 'string' } } };
const DOCUMENT = {
  'application/json': { schema: { type: 'object', description: 'an OpenAPI 3.1 document' } },
};

/** The API document and its browsable UI; public unless `DOCS_PUBLIC=false` (common/scope-policy.ts). */
@Controller('api')
export class DocsController {
  constructor(@Inject(DocsService) private readonly docs: DocsService) {}

  @Get('openapi.json')
  @ApiRoute({ summary: 'This OpenAPI 3.1 document', content: DOCUMENT })
  document() {
    return this.docs.openApiDocument();
  }

  /** The UI for a browser; the document itself for any other client (what this route used to serve). */
  @Get('docs')
  @ApiRoute({
    summary: 'The browsable API documentation (Swagger UI)',
    description: 'HTML for a client that accepts `text/html` (a browser); else this document, as JSON.',
    content: { ...HTML, ...DOCUMENT },
  })
  page(@Req() req: Request, @Res() res: Response): void {
    const path = req.originalUrl.split('?')[0];
    if (path.endsWith('/')) return res.redirect(301, path.replace(/\/+$/, ''));
    if (req.accepts(['application/json', 'text/html']) === 'text/html') {
      res.type('html').send(UI_PAGE);
      return;
    }
    res.json(this.docs.openApiDocument());
  }

  @Get('docs/:asset')
  @ApiRoute({
    summary: "A file of the UI page (Swagger UI's script, style sheet, icon; the page's init script)",
    content: {
      'application/javascript': { schema: { type: 'string' } },
      'text/css': { schema: { type: 'string' } },
    },
  })
  asset(@Param('asset') name: string, @Res() res: Response): void {
    const asset = uiAsset(name);
    if (!asset) throw new NotFoundError('file', name.slice(0, 64));
    res.type(asset.type).set('cache-control', 'public, max-age=3600');
    if (asset.text !== undefined) res.send(asset.text);
    else res.sendFile(asset.file!);
  }
}
