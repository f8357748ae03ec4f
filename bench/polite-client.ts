// The well-behaved tenant of `npm run bench hostile`, in a process of its own
// so that the attacker's loops (in the bench's process) never delay its
// requests or its clock: its latencies are the service's, not the bench's.
// Argument: JSON {base, key, caseId, until, ratePerSecond}; prints its samples as JSON.

export interface Sample {
  ms: number;
  status: number | string;
}

export interface PoliteOptions {
  base: string;
  key: string;
  caseId: string;
  /** Epoch ms at which to stop sending. */
  until: number;
  ratePerSecond: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `ratePerSecond` requests a second (open loop: a slow answer does not slow the sender), REST and GraphQL reads and a write. */
export async function politeTraffic({ base, key, caseId, until, ratePerSecond }: PoliteOptions) {
  const samples: Sample[] = [];
  const json = { 'x-api-key': key, 'content-type': 'application/json' };
  const requests: Array<() => Promise<Response>> = [
    () => fetch(`${base}/v1/consumer-cases?limit=20`, { headers: { 'x-api-key': key } }),
    () => fetch(`${base}/v1/consumer-cases/${caseId}`, { headers: { 'x-api-key': key } }),
    () => fetch(`${base}/graphql`, {
      method: 'POST', headers: json,
      body: JSON.stringify({ query: `query { consumerCase(id: "${caseId}") { id status tasks(first: 10) { edges { node { id title } } } } }` }),
    }),
    () => fetch(`${base}/v1/tasks?limit=20&status=TODO`, { headers: { 'x-api-key': key } }),
    () => fetch(`${base}/v1/tasks`, { method: 'POST', headers: json, body: JSON.stringify({ title: 'Check the address', consumerCaseId: caseId }) }),
  ];
  const inFlight: Promise<void>[] = [];
  const started = Date.now();
  for (let i = 0; Date.now() < until; i++) {
    const next = started + (i * 1000) / ratePerSecond;
    if (next > Date.now()) await sleep(next - Date.now());
    const request = requests[i % requests.length]!;
    inFlight.push((async () => {
      const t0 = performance.now();
      const status = await request().then(async (r) => { await r.arrayBuffer(); return r.status; }, (error: Error) => error.message);
      samples.push({ ms: performance.now() - t0, status });
    })());
  }
  await Promise.all(inFlight);
  return samples;
}

if (process.argv[1]?.endsWith('polite-client.ts')) {
  const samples = await politeTraffic(JSON.parse(process.argv[2]!) as PoliteOptions);
  process.stdout.write(JSON.stringify(samples));
}
