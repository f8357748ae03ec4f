// The embedded PostgreSQL (src/db/embedded.ts): a real server in a process
// group of its own (a terminal's Ctrl-C must not reach it), a clear error when
// it cannot start, and an ephemeral one leaves nothing behind.
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type EmbeddedDatabase, postgresAnswers, startEmbeddedPostgres } from '../../src/db/embedded.ts';
import { StartupProblem } from '../../src/startup-problem.ts';
import { freePort } from '../helpers/ports.ts';

const folders: string[] = [];
const running: EmbeddedDatabase[] = [];

afterAll(async () => {
  for (const database of running) await database.stop().catch(() => {});
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function folder() {
  const made = await mkdtemp(join(tmpdir(), 'embedded-pg-'));
  folders.push(made);
  // Run as root, PostgreSQL runs as its own user, which must reach its folder.
  await chmod(made, 0o755);
  return join(made, 'postgres');
}

/** The process group of a process (field 5 of /proc/<pid>/stat). */
async function processGroup(pid: number) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

describe('embedded PostgreSQL', () => {
  it('creates the compliance database, owned by a role that is not a superuser, runs in a process group of its own, and stops', async () => {
    const dataDir = await folder();
    const database = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: false });
    running.push(database);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ name: string; role: string; rolsuper: boolean; rolbypassrls: boolean; owner: boolean }>(
      `SELECT current_database() AS name, current_user AS role, rolsuper, rolbypassrls,
              (SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()) = current_user AS owner
         FROM pg_roles WHERE rolname = current_user`,
    );
    await client.end();
    // The service connects as that role; the cluster's superuser sets it up.
    expect(rows[0]).toEqual({ name: 'compliance', role: 'compliance', rolsuper: false, rolbypassrls: false, owner: true });
    const postmaster = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
    expect(await processGroup(postmaster)).toBe(postmaster);
    expect(await processGroup(postmaster)).not.toBe(await processGroup(process.pid));
    await database.stop();
    expect(await postgresAnswers(database.url)).toBe(false);
    // Kept: a persistent cluster starts again on its data.
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
  });

  it('says which folder and ports when its folder is held by a server on another port, as a start-up problem (no stack)', async () => {
    const dataDir = await folder();
    const firstPort = await freePort();
    const first = await startEmbeddedPostgres({ dataDir, port: firstPort, ephemeral: true });
    running.push(first);
    const otherPort = await freePort();
    // The folder is held by the first server, on another port.
    const second = await startEmbeddedPostgres({ dataDir, port: otherPort, ephemeral: true }).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(StartupProblem);
    expect(second).toMatchObject({ setting: 'EMBEDDED_PG_PORT', details: { dataDir, port: otherPort, runningPort: firstPort } });
    expect((second as Error).message).toBe(
      `EMBEDDED_PG_PORT: the data folder ${dataDir} is already in use by a PostgreSQL on port ${firstPort}, not ${otherPort}: ` +
        `set EMBEDDED_PG_PORT=${firstPort} to share it, stop that service, or choose another DATA_DIR`,
    );
    expect(await postgresAnswers(first.url)).toBe(true);
  });

  it('deletes an ephemeral cluster\'s data when it stops', async () => {
    const dataDir = await folder();
    const database = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    running.push(database);
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    await database.stop();
    expect(existsSync(dataDir)).toBe(false);
  });
});
