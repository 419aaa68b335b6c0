import { join } from 'node:path';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';

/**
 * The Swagger UI page at `/api/docs`: swagger-ui-dist's files, served by the gateway itself, and
 * nothing from another origin (the UI's online validator badge is turned off: it would send the
 * document to validator.swagger.io). Paths are relative to `/api/docs`, so a proxy may mount the
 * gateway under a prefix.
 */
export const UI_PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>AgentChassis gateway API</title>
  <link rel="stylesheet" href="docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="docs/swagger-ui-bundle.js"></script>
  <script src="docs/init.js"></script>
</body>
</html>
`;

const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'application/javascript',
  'favicon-32x32.png': 'image/png',
};

/** One asset of the page by name: the init script's text, a swagger-ui-dist file's path, or nothing. */
export function uiAsset(name: string): { type: string; text?: string; file?: string } | undefined {
  if (name === 'init.js') return { type: 'application/javascript', text: INIT_SCRIPT };
  const type = ASSETS[name];
  return type ? { type, file: join(getAbsoluteFSPath(), name) } : undefined;
}
