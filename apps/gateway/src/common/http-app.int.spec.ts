import { Body, Controller, Get, Module, Param, Post } from '@nestjs/common';
import { APP_FILTER, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@app/config';
import { ChatRequest, parseDto } from '@app/contracts';
import { Logger } from '@app/observability';
import { configureHttp } from './http-app';
import { ErrorShapes } from './error-shapes';
import { HttpErrorFilter } from './http-error.filter';

@Controller('api/v1/things')
class ThingsController {
  @Post()
  create(@Body() body: unknown) {
    return parseDto(ChatRequest, body, 'chat request');
  }

  @Get(':id')
  get(@Param('id') id: string) {
    return { id };
  }
}

const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

@Module({
  controllers: [ThingsController],
  providers: [
    { provide: Logger, useValue: quiet },
    ErrorShapes,
    { provide: APP_FILTER, useClass: HttpErrorFilter },
  ],
})
class TestModule {}

describe('the gateway HTTP settings (in-process, real HTTP)', () => {
  let app: NestExpressApplication;
  let base = '';

  beforeAll(async () => {
    app = await NestFactory.create<NestExpressApplication>(TestModule, { logger: false, bodyParser: false });
    [base] = await configureHttp(app, loadConfig({ PORT: '0', HOST: '127.0.0.1' }));
  });
  afterAll(() => app?.close());

  const send = async (
    method: string,
    path: string,
    body?: string | Uint8Array,
    headers: Record<string, string> = {},
  ) => {
    const res = await fetch(`${base}${path}`, { method, body, headers });
    return {
      status: res.status,
      allow: res.headers.get('allow'),
      body: (await res.json()) as { error?: { code: string; message: string }; [key: string]: unknown },
    };
  };

  it('says a missing field is required, once', async () => {
    const res = await send('POST', '/api/v1/things', '{}', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'invalid_params',
      message: 'invalid chat request: message: is required',
      details: [{ field: 'message', message: 'is required' }],
    });
  });

  it('tells a client that sent a body without content-type to send application/json', async () => {
    // fetch labels a string body text/plain; bytes go without a content-type, as curl's --data-binary @file
    const res = await send('POST', '/api/v1/things', new TextEncoder().encode('{"message":"hi"}'));
    expect(res.status).toBe(415);
    expect(res.body.error).toEqual({
      code: 'unsupported_media_type',
      message: 'the request body must be JSON sent with content-type: application/json (got no content-type)',
    });
    const text = await send('POST', '/api/v1/things', '{"message":"hi"}', { 'content-type': 'text/plain' });
    expect(text.body.error?.message).toMatch(
      /content-type: application\/json \(got content-type: text\/plain\)/,
    );
  });

  it('refuses a body nested thousands of levels deep with a 400, not a 500 from a stack overflow', async () => {
    const body = `{"message":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
    const res = await send('POST', '/api/v1/things', body, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'bad_request',
      message: 'the request body is nested more than 64 levels deep',
    });
  });

  it('reads application/*+json bodies as JSON', async () => {
    const res = await send('POST', '/api/v1/things', '{"message":"hi"}', {
      'content-type': 'application/vnd.api+json',
    });
    expect(res).toMatchObject({ status: 201, body: { message: 'hi' } });
  });

  it('answers 405 with an Allow header for a path that exists with other methods, 404 for one that does not', async () => {
    const put = await send('PUT', '/api/v1/things', '{}', { 'content-type': 'application/json' });
    expect(put).toMatchObject({
      status: 405,
      allow: 'POST',
      body: {
        error: { code: 'method_not_allowed', message: 'PUT is not allowed on /api/v1/things; use POST' },
      },
    });
    const del = await send('DELETE', '/api/v1/things/t1');
    expect(del).toMatchObject({ status: 405, allow: 'GET, HEAD' });
    expect((await send('GET', '/api/v1/things/t1')).body).toEqual({ id: 't1' });
    expect((await send('PUT', '/api/v1/nothing')).status).toBe(404);
  });
});
