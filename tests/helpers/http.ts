export interface HttpResult<Body = any> {
  status: number;
  headers: Headers;
  body: Body;
}

/** A REST client bound to one service URL and API key. */
export function restClient(baseUrl: string, key?: string) {
  return async function request<Body = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<HttpResult<Body>> {
    const init: RequestInit = { method, headers: { ...(key ? { 'x-api-key': key } : {}), ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const response = await fetch(baseUrl + path, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
}

export interface GraphQLResult<Data = any> {
  status: number;
  data?: Data | null;
  errors?: Array<{ message: string; path?: string[]; extensions?: { code?: string } }>;
}

/** A GraphQL client bound to one service URL and API key. */
export function graphqlClient(baseUrl: string, key?: string) {
  return async function query<Data = any>(document: string, variables?: Record<string, unknown>): Promise<GraphQLResult<Data>> {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json',
        ...(key ? { 'x-api-key': key } : {}),
      },
      body: JSON.stringify({ query: document, variables }),
    });
    const payload = await response.json();
    return { status: response.status, ...payload };
  };
}
