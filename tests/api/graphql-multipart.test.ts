import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { graphqlClient } from '../helpers/http.ts';
import { rawExchange } from '../helpers/raw-http.ts';
import { createOrganization, startTestService, type TestOrganization } from '../helpers/service.ts';

let service: RunningService;
let org: TestOrganization;

beforeAll(async () => {
  service = await startTestService({ env: { MAX_UPLOAD_BYTES: String(256 * 1024) } });
  org = await createOrganization(service.db);
});
afterAll(() => service.stop());

const UPLOAD = 'mutation ($file: Upload!) { uploadPrivateFile(file: $file) { fileKey } }';
const field = (name: string, value: string) => `--BND\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const operations = field('operations', JSON.stringify({ query: UPLOAD, variables: { file: null } }));
const map = field('map', JSON.stringify({ 0: ['variables.file'] }));
const filePart = (content: string) => `--BND\r\nContent-Disposition: form-data; name="0"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${content}`;

/** Malformed GraphQL multipart bodies (the multipart request spec), each of which must get a 400. */
const MALFORMED: Array<[string, string, string?]> = [
  // The outside tester's exact reproduction: a part whose header is not a header.
  ['part header that is not a header', '--BND\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":"{ __typename }"}\r\n--BND\r\nthis is not a header\r\n\r\nx\r\n--BND--\r\n'],
  ['20 KB part header', `${operations}--BND\r\nX-Padding: ${'a'.repeat(20 * 1024)}\r\n\r\nx\r\n--BND--\r\n`],
  ['part header that is not a header after the map', `${operations}${map}--BND\r\nnot a header either\r\n\r\nx\r\n--BND--\r\n`],
  ['truncated inside the file', `${operations}${map}${filePart('\x89PNG\r\n\x1a\nabc')}`],
  ['truncated inside the operations', '--BND\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":'],
  ['truncated inside a part header', `${operations}--BND\r\nContent-Disposition: form-da`],
  ['empty body', ''],
  ['no boundary parameter', `${operations}${map}--BND--\r\n`, 'multipart/form-data'],
  ['boundary that does not match', `${operations}${map}--BND--\r\n`, 'multipart/form-data; boundary=other'],
  ['operations that are not JSON', `${field('operations', '{nope')}${map}--BND--\r\n`],
  ['operations of the wrong type', `${field('operations', '42')}${map}--BND--\r\n`],
  ['map before operations', `${map}${operations}--BND--\r\n`],
  ['map that is not JSON', `${operations}${field('map', '[oops')}--BND--\r\n`],
  ['map entry that is not an array', `${operations}${field('map', '{"0":"variables.file"}')}--BND--\r\n`],
  ['map path that does not exist', `${operations}${field('map', '{"0":["variables.nothing.here.__proto__"]}')}--BND--\r\n`],
  ['map without its file', `${operations}${map}--BND--\r\n`],
  ['no map', `${operations}--BND--\r\n`],
  ['file before the map', `${operations}${filePart('x')}\r\n${map}--BND--\r\n`],
];

async function stillAnswers() {
  const result = await graphqlClient(service.url, org.key)('{ __typename }');
  expect(result.data).toEqual({ __typename: 'Query' });
}

describe('malformed multipart bodies on POST /graphql', () => {
  it.each(MALFORMED)('%s: 400 in GraphQL error shape, and the service keeps answering', async (_name, body, contentType) => {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': org.key, 'content-type': contentType ?? 'multipart/form-data; boundary=BND' },
      body,
    });
    const answer = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
    expect(response.status).toBe(400);
    expect(answer.errors[0]!.extensions.code).toMatch(/^BAD_(REQUEST|USER_INPUT)$/);
    expect(answer.errors[0]!.message).not.toBe('Internal server error');
    await stillAnswers();
  });

  it.each([
    ['before the map', operations.slice(0, 40)],
    ['inside the file', `${operations}${map}${filePart('\x89PNG\r\n\x1a\n' + 'x'.repeat(1000))}`],
    ['after a malformed part header', `${operations}--BND\r\nnot a header\r\n\r\nx`],
  ])('a client that hangs up %s leaves the service answering', async (_name, start) => {
    const exchange = await rawExchange(service.url, [
      'POST /graphql HTTP/1.1', 'Host: 127.0.0.1', `X-API-Key: ${org.key}`,
      'Content-Type: multipart/form-data; boundary=BND', 'Content-Length: 100000', '', start,
    ].join('\r\n'));
    await new Promise((done) => setTimeout(done, 100));
    exchange.destroy();
    await new Promise((done) => setTimeout(done, 100));
    await stillAnswers();
  });
});
