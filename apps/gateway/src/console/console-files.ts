import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The console's response headers: nothing inline, nothing from another origin, never in a frame. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export const SECURITY_HEADERS = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const ASSET_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.(js|css|svg|png|woff2)$/;

/**
 * The web console's build (`dist/console`, written by `npm run build`), found above the running
 * file whether it runs from dist (a service) or from src (a test).
 */
export class ConsoleFiles {
  readonly dir: string | undefined;

  constructor(from = __dirname) {
    for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
      for (const candidate of [join(dir, 'console'), join(dir, 'dist', 'console')]) {
        if (existsSync(join(candidate, 'index.html')) && existsSync(join(candidate, 'assets'))) {
          this.dir = candidate;
          return;
        }
      }
    }
  }

  /** The page, read on each request (small; a rebuild needs no restart). */
  index(): string | undefined {
    if (!this.dir) return undefined;
    try {
      return readFileSync(join(this.dir, 'index.html'), 'utf8');
    } catch {
      return undefined;
    }
  }

  /** An asset's absolute path, or undefined for a name that is not one of the build's files. */
  asset(name: string): string | undefined {
    if (!this.dir || !ASSET_NAME.test(name)) return undefined;
    const file = join(this.dir, 'assets', name);
    return existsSync(file) ? file : undefined;
  }
}
