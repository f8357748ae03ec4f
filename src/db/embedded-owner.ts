import { realpath, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { PortInUseError } from '../port-in-use.ts';

/** Who started the cluster's server: written next to PostgreSQL's own postmaster.pid. */
const OWNER_FILE = 'service-owner.pid';

/**
 * What already answers on the embedded PostgreSQL's port, before this process
 * starts one there: nothing (`none`); our folder's server while the process
 * that started it still runs (`shared`: `npm run apikey` beside `npm start`);
 * or our folder's server whose starter is gone (`orphan`, left by a crash:
 * this process takes it over and stops it). Another cluster on the port (one
 * more instance with another DATA_DIR) is refused as a port in use: its data
 * is not ours to serve.
 */
export async function serverOnPort(adminUrl: string, databaseDir: string, port: number): Promise<'none' | 'shared' | 'orphan'> {
  const served = await dataDirectoryAt(adminUrl);
  if (served === undefined) return 'none';
  if ((await canonical(served)) !== (await canonical(databaseDir))) throw new PortInUseError('EMBEDDED_PG_PORT', port);
  const owner = Number((await readFile(join(databaseDir, OWNER_FILE), 'utf8').catch(() => '')).trim());
  return owner > 0 && processRuns(owner) ? 'shared' : 'orphan';
}

/** Records this process as the one that stops the folder's server. */
export async function recordOwner(databaseDir: string) {
  await writeFile(join(databaseDir, OWNER_FILE), `${process.pid}\n`);
}

/**
 * Takes over a server of our folder whose starter is gone: this process
 * becomes its owner and stops it (fast shutdown, by signal to the postmaster
 * named in the folder, as it is not our child), at `stop()` or at exit.
 */
export async function adoptOrphan(databaseDir: string) {
  await recordOwner(databaseDir);
  const postmaster = Number((await readFile(join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  const signal = () => {
    if (!(postmaster > 0)) return; // (0 would signal our own process group)
    try {
      process.kill(postmaster, 'SIGINT');
    } catch {
      // Already gone.
    }
  };
  process.once('exit', signal);
  return async function stop() {
    process.removeListener('exit', signal);
    signal();
    const deadline = Date.now() + 60_000;
    while (postmaster > 0 && Date.now() < deadline && processRuns(postmaster)) await new Promise((done) => setTimeout(done, 100));
  };
}

/**
 * The data folder of the PostgreSQL at `adminUrl`, asked as the embedded
 * superuser; undefined when none lets us in (whatever else holds the port
 * makes the server's start fail with "port in use").
 */
async function dataDirectoryAt(adminUrl: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ data_directory: string }>('SHOW data_directory');
    return rows[0]!.data_directory;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => {});
  }
}

async function canonical(path: string) {
  return realpath(path).catch(() => path);
}

function processRuns(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
