import { All, Controller, Get, Post } from '@nestjs/common';
import { describe, expect, it } from 'vitest';
import { ChatRequest } from '@app/contracts';
import { ApiRoute } from './api-route.decorator';
import { buildOpenApiDocument } from './openapi-document';

@Controller('mcp')
class TransportController {
  @All()
  @ApiRoute({ summary: 'a transport', methods: ['get', 'post', 'delete'] })
  handle() {}
}

@Controller('api/v1/things')
class ThingsController {
  @Get(':id')
  undocumented() {}

  @Post()
  @ApiRoute({ summary: 'make one', body: ChatRequest, headers: { 'Idempotency-Key': 'retry safely' } })
  create() {}
}

type Paths = Record<string, Record<string, Record<string, unknown>>>;
const build = (docsPublic = true) =>
  buildOpenApiDocument([TransportController, ThingsController], {
    version: '1',
    metricsPublic: true,
    docsPublic,
  }).paths as Paths;

describe('buildOpenApiDocument', () => {
  it('lists an @All() handler under the methods it names', () => {
    expect(Object.keys(build()['/mcp'])).toEqual(['get', 'post', 'delete']);
  });

  it('marks a handler without @ApiRoute as undocumented, so the every-route test names it', () => {
    expect(build()['/api/v1/things/{id}'].get).toMatchObject({
      'x-undocumented': true,
      summary: 'undocumented',
    });
    expect(build()['/api/v1/things'].post).not.toHaveProperty('x-undocumented');
  });

  it('lists the request headers a route reads as optional header parameters', () => {
    expect(build()['/api/v1/things'].post.parameters).toEqual([
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'retry safely',
        schema: { type: 'string' },
      },
    ]);
  });

  it('takes the scope from the policy the guard enforces: an unlisted route needs admin', () => {
    expect(build()['/api/v1/things'].post).toMatchObject({
      security: [{ bearer: [] }],
      'x-required-scopes': ['admin'],
    });
  });
});
