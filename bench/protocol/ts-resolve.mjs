// Lets Node's built-in type stripping run the bench against the library sources. The repo
// writes relative imports without an extension (TypeScript's node10 style), which Node's ESM
// resolver does not complete, so a missing extension is retried as `.ts`; and since the repo's
// package.json declares no "type", `.ts` files are loaded as ES modules outright.
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      if (!/^\.\.?\//.test(specifier) || /\.[cm]?[jt]s$/.test(specifier)) throw error;
      return nextResolve(`${specifier}.ts`, context);
    }
  },
  load(url, context, nextLoad) {
    const isOwnTypeScript = url.startsWith('file:') && url.endsWith('.ts') && !url.includes('/node_modules/');
    return nextLoad(url, isOwnTypeScript ? { ...context, format: 'module-typescript' } : context);
  },
});
