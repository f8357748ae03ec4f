import pg from 'pg';

/**
 * The SELECT statements naming `table` that this process sends while `work`
 * runs: a test service runs in the test's process, so its queries pass here.
 */
export async function selectsOn(table: string, work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config] = args;
    const text = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text;
    if (text?.includes(`"${table}"`) && /^\s*SELECT/i.test(text)) seen.push(text);
    return (query as (...queryArgs: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return seen;
}
