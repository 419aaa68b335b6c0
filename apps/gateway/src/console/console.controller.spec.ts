import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '@app/contracts';
import { ConsoleController } from './console.controller';
import { CONSOLE_CSP, ConsoleFiles } from './console-files';

/** Records what the controller answers (the bits of express's Response it uses). */
function recorder() {
  const sent: {
    status: number;
    headers: Record<string, string>;
    type?: string;
    body?: string;
    file?: string;
  } = {
    status: 200,
    headers: {},
  };
  const res = {
    set(name: string | Record<string, string>, value?: string) {
      Object.assign(sent.headers, typeof name === 'string' ? { [name]: value } : name);
      return res;
    },
    status(code: number) {
      sent.status = code;
      return res;
    },
    type(type: string) {
      sent.type = type;
      return res;
    },
    send(body: string) {
      sent.body = body;
      return res;
    },
    sendFile(file: string) {
      sent.file = file;
      return res;
    },
  };
  return { res: res as unknown as Response, sent };
}

function built(): string {
  const root = mkdtempSync(join(tmpdir(), 'ac-console-'));
  mkdirSync(join(root, 'dist', 'console', 'assets'), { recursive: true });
  writeFileSync(join(root, 'dist', 'console', 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(root, 'dist', 'console', 'assets', 'index-AbC123.js'), 'export {}');
  mkdirSync(join(root, 'apps', 'gateway'), { recursive: true });
  return root;
}

describe('the console routes', () => {
  it('answer 503 with what to do, not a crash, when the console is not built', () => {
    const controller = new ConsoleController(new ConsoleFiles(mkdtempSync(join(tmpdir(), 'ac-none-'))));
    const { res, sent } = recorder();
    controller.page(res);
    expect(sent).toMatchObject({ status: 503, type: 'text/plain' });
    expect(sent.body).toContain('npm run build');
    expect(() => controller.asset('index-AbC123.js', recorder().res)).toThrow(NotFoundError);
  });

  it('serve the page uncached and the hashed files immutable, both under the strict CSP', () => {
    const root = built();
    const controller = new ConsoleController(new ConsoleFiles(join(root, 'apps', 'gateway')));
    const page = recorder();
    controller.page(page.res);
    expect(page.sent).toMatchObject({
      status: 200,
      type: 'html',
      body: '<!doctype html><title>console</title>',
    });
    expect(page.sent.headers).toMatchObject({
      'cache-control': 'no-cache',
      'content-security-policy': CONSOLE_CSP,
    });

    const asset = recorder();
    controller.asset('index-AbC123.js', asset.res);
    expect(asset.sent.file).toBe(join(root, 'dist', 'console', 'assets', 'index-AbC123.js'));
    expect(asset.sent.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serve no file outside the build’s assets', () => {
    const controller = new ConsoleController(new ConsoleFiles(join(built(), 'apps', 'gateway')));
    for (const name of ['../index.html', '..', 'index-AbC123.js.map', '.hidden.js', 'missing-1.js'])
      expect(() => controller.asset(name, recorder().res), name).toThrow(NotFoundError);
  });
});
