/** multipart/form-data with the given file parts (and plain fields). */
export function formWith(parts: Array<{ name: string; data: Buffer; filename?: string; type?: string }>, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const part of parts) {
    form.append(part.name, new Blob([new Uint8Array(part.data)], { type: part.type ?? 'application/octet-stream' }), part.filename ?? 'upload.bin');
  }
  return form;
}

export async function upload(baseUrl: string, key: string | undefined, visibility: 'public' | 'private', form: FormData | BodyInit, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}/v1/files/upload/${visibility}`, {
    method: 'POST',
    headers: { ...(key ? { 'x-api-key': key } : {}), ...headers },
    body: form,
    ...(form instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** A GraphQL multipart request (the multipart request spec) with one file in variable `file`. */
export async function graphqlUpload(baseUrl: string, key: string | undefined, query: string, data: Buffer, filename = 'scan.png') {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query, variables: { file: null } }));
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', new Blob([new Uint8Array(data)]), filename);
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: key ? { 'x-api-key': key } : {},
    body: form,
  });
  return { status: response.status, ...(await response.json()) };
}
