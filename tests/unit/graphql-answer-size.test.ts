// An answer too large to send is a 413 naming the limit, never a 500: past
// the limit, and where V8 cannot build the JSON string at all (RangeError:
// Invalid string length, which 15 aliased analyses' blocks once caused).
import type { AddressInfo } from 'node:net';
import type { ExecutionResult } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { graphqlJson, useAnswerSizeLimit } from '../../src/http/graphql-json.ts';
import type { GraphQLServer } from '../../src/http/yoga.ts';

let server: ReturnType<Koa['listen']> | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** /graphql through the fast path, its executor answering `result`. */
async function answer(result: ExecutionResult, maxAnswerChars?: number) {
  const graphql = { getResultForParams: async () => result } as unknown as GraphQLServer;
  const app = new Koa();
  app.use(graphqlJson({ graphql, maskError: (error) => error as Error, bodyLimit: '1mb', maxAnswerChars }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server!.once('listening', resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, {
    method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ query: '{ big }' }),
  });
  return { status: response.status, body: await response.json() };
}

describe('answers too large to send', () => {
  it('sends an answer within the limit', async () => {
    expect(await answer({ data: { big: 'x'.repeat(900) } }, 1000)).toEqual({ status: 200, body: { data: { big: 'x'.repeat(900) } } });
  });

  it('refuses an answer over the limit with 413 naming it', async () => {
    expect(await answer({ data: { big: 'x'.repeat(2000) } }, 1000)).toEqual({
      status: 413,
      body: { errors: [{ message: 'The answer is larger than 1000 characters of JSON, the most one request may return; select fewer fields, aliases or items', extensions: { code: 'PAYLOAD_TOO_LARGE' } }] },
    });
  });

  it('refuses with 413, not 500, an answer V8 cannot make a string of', async () => {
    const beyondV8 = { toJSON: () => { throw new RangeError('Invalid string length'); } };
    const { status, body } = await answer({ data: { big: beyondV8 } });
    expect(status).toBe(413);
    expect(body.errors[0]).toMatchObject({ message: expect.stringMatching(/^The answer is larger than 64 MB of JSON/), extensions: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});

describe('answers too large to send, through yoga\'s own handler (GET, uploads, CORS requests)', () => {
  const beyondV8 = { toJSON: () => { throw new RangeError('Invalid string length'); } };
  const yoga = (maxChars?: number) => createYoga({
    schema: createSchema({
      typeDefs: 'scalar JSON type Query { big(size: Int!): String huge: JSON }',
      resolvers: { Query: { big: (_: unknown, { size }: { size: number }) => 'x'.repeat(size), huge: () => beyondV8 } },
    }),
    plugins: [useAnswerSizeLimit(maxChars)],
    logging: false,
  });
  const get = async (server: ReturnType<typeof yoga>, query: string) => {
    const response = await server.fetch(`http://yoga.test/graphql?query=${encodeURIComponent(query)}`, { headers: { accept: 'application/json' } });
    return { status: response.status, body: await response.json() };
  };

  it('sends an answer within the limit, and refuses one over it with 413 naming it', async () => {
    const server = yoga(1000);
    expect(await get(server, '{ big(size: 900) }')).toEqual({ status: 200, body: { data: { big: 'x'.repeat(900) } } });
    const refused = await get(server, '{ big(size: 2000) }');
    expect(refused.status).toBe(413);
    expect(refused.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^The answer is larger than 1000 characters of JSON/), extensions: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('refuses with 413, not 500, an answer V8 cannot make a string of', async () => {
    const refused = await get(yoga(), '{ huge }');
    expect(refused.status).toBe(413);
    expect(refused.body.errors[0].message).toMatch(/^The answer is larger than 64 MB of JSON/);
  });
});
