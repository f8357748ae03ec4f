import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Middleware } from 'koa';
import { buildOpenApi } from '../../rest/openapi.ts';
import { routes } from '../../rest/routes.ts';
import { schema } from '../schema/index.ts';

const packageJson = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The `/v1` API as OpenAPI 3.1, built from the route table (also committed as rest/openapi.json). */
export function openApiDocument() {
  return buildOpenApi(schema, routes, { title: 'Compliance platform REST API', version: packageJson.version });
}

// swagger-ui-dist ships the browsable page's assets; served from the package, no CDN.
const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Compliance platform REST API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

/** `GET /v1/openapi.json` and the docs page at `/docs`: public, like any published API description. */
export function apiDocs(): Middleware {
  let document: string | undefined;
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/v1/openapi.json') {
      document ??= JSON.stringify(openApiDocument());
      ctx.type = 'application/json';
      ctx.body = document;
    } else if (ctx.path === '/docs' || ctx.path === '/docs/') {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = DOCS_PAGE;
    } else if (ctx.path === '/docs/init.js') {
      ctx.type = 'text/javascript; charset=utf-8';
      ctx.body = INIT_SCRIPT;
    } else if (ctx.path.startsWith('/docs/') && Object.hasOwn(ASSETS, ctx.path.slice(6))) {
      const name = ctx.path.slice(6);
      ctx.type = ASSETS[name]!;
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.body = await readFile(join(SWAGGER_UI, name));
    } else {
      return next();
    }
  };
}
