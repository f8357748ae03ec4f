// Writes rest/openapi.json (the /v1 API as OpenAPI 3.1, from the route table),
// or with --check fails when the committed file differs.
import { openApiDocument } from '../src/http/api-docs.ts';
import { writeOrCheck } from './write-or-check.ts';

writeOrCheck(new URL('../rest/openapi.json', import.meta.url), `${JSON.stringify(openApiDocument(), null, 2)}\n`, 'npm run openapi:print');
