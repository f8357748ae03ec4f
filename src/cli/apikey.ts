// Operator command: `npm run apikey -- <create|list|revoke> ...`. The only way
// to create organizations and keys (there is deliberately no HTTP endpoint).
import { parseArgs } from 'node:util';
import { displayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys.ts';
import { ALL_PERMISSIONS, isPermission, PERMISSIONS } from '../auth/permissions.ts';
import { loadConfig } from '../config.ts';
import { createDatabase, type Database } from '../db/client.ts';
import type { Prisma } from '../generated/prisma/client.ts';
import { createLogger } from '../logger.ts';
import { prepareDatabase } from '../service.ts';

const USAGE = `Usage:
  npm run apikey -- create --org <name> --permissions <p1,p2,...|all> [--label <text>] [--expires-in-days <n>]
  npm run apikey -- list [--org <name>]
  npm run apikey -- rotate <key id or prefix> [--grace-hours <n>]
  npm run apikey -- revoke <key id or prefix>
  npm run apikey -- permissions

create makes the organization when it does not exist yet and prints the key once.
rotate prints a new key with the same organization, permissions and label; the
old key keeps working for the grace period (default 24 hours; 0 ends it now).`;

const HELP = new Set(['help', '--help', '-h']);

const DAY_MS = 24 * 3_600_000;

function positiveNumber(name: string, value: string | undefined, fallback: number | null, allowZero = false): number | null {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || (!allowZero && number === 0) || number > 3650 * 24) {
    throw new UsageError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return number;
}

/** One key, by id or display prefix; ambiguous or unknown prefixes are refused. */
/** The operator's changes, recorded in the audit trail as the operator command's. */
function asOperator<T>(db: Database, work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT set_config('app.actor', 'operator command', TRUE)`;
    return work(tx);
  });
}

async function findKey(db: Database, target: string | undefined, command: string) {
  if (!target) throw new UsageError(`${command} needs a key id or prefix`);
  const byId = /^[0-9a-f-]{36}$/i.test(target);
  const keys = await db.apiKey.findMany({ where: { ...(byId ? { id: target } : { prefix: target }), revokedAt: null } });
  if (keys.length === 0) throw new UsageError(`No active key matches ${target}`);
  if (keys.length > 1) throw new UsageError(`${target} matches ${keys.length} keys; use the key id`);
  return keys[0]!;
}

function stateOf(key: { revokedAt: Date | null; expiresAt: Date | null }, now = new Date()) {
  if (key.revokedAt) return `revoked ${key.revokedAt.toISOString()}`;
  if (key.expiresAt && key.expiresAt <= now) return `expired ${key.expiresAt.toISOString()}`;
  if (key.expiresAt) return `active until ${key.expiresAt.toISOString()}`;
  return 'active';
}

class UsageError extends Error {}

function parsePermissions(value: string | undefined) {
  if (!value) throw new UsageError('--permissions is required');
  if (value === 'all') return [...ALL_PERMISSIONS];
  const requested = value.split(',').map((p) => p.trim()).filter(Boolean);
  const unknown = requested.filter((p) => !isPermission(p));
  if (unknown.length) throw new UsageError(`Unknown permission(s): ${unknown.join(', ')}. Known: ${ALL_PERMISSIONS.join(', ')}`);
  return [...new Set(requested)];
}

async function create(db: Database, args: string[]) {
  const { values } = parseArgs({
    args, options: { org: { type: 'string' }, permissions: { type: 'string' }, label: { type: 'string' }, 'expires-in-days': { type: 'string' } },
  });
  const orgName = values.org?.trim();
  if (!orgName) throw new UsageError('--org is required');
  const permissions = parsePermissions(values.permissions);
  const days = positiveNumber('--expires-in-days', values['expires-in-days'], null);
  const expiresAt = days === null ? null : new Date(Date.now() + days * DAY_MS);
  const key = generateApiKey();
  const { organization, record } = await asOperator(db, async (tx) => {
    const organization = await tx.organization.upsert({ where: { name: orgName }, create: { name: orgName }, update: {} });
    const record = await tx.apiKey.create({
      data: { organizationId: organization.id, label: values.label ?? null, prefix: displayPrefix(key), hash: hashApiKey(key), permissions, expiresAt },
    });
    return { organization, record };
  });
  console.log(JSON.stringify({ organization: { id: organization.id, name: organization.name }, keyId: record.id, permissions, expiresAt, apiKey: key }, null, 2));
  console.error('Store the apiKey now: it is not shown again.');
}

async function list(db: Database, args: string[]) {
  const { values } = parseArgs({ args, options: { org: { type: 'string' } } });
  const keys = await db.apiKey.findMany({
    where: values.org ? { organization: { name: values.org } } : {},
    include: { organization: { select: { name: true } } },
    orderBy: { createdAt: 'asc' },
  });
  for (const k of keys) {
    const lastUsed = k.lastUsedAt ? `last used ${k.lastUsedAt.toISOString()}` : 'never used';
    console.log([k.id, k.organization.name, `${k.prefix}…`, stateOf(k), lastUsed, k.permissions.join(','), k.label ?? ''].join('\t'));
  }
}

async function revoke(db: Database, args: string[]) {
  const key = await findKey(db, args[0], 'revoke');
  await asOperator(db, (tx) => tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } }));
  console.log(`Revoked key ${key.id} (${key.prefix}…).`);
}

/** A new key in place of an old one, which keeps working for the grace period so clients can switch over. */
async function rotate(db: Database, args: string[]) {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'grace-hours': { type: 'string' } } });
  const old = await findKey(db, positionals[0], 'rotate');
  if (old.expiresAt && old.expiresAt <= new Date()) throw new UsageError(`Key ${old.id} has already expired; create a new one`);
  const graceHours = positiveNumber('--grace-hours', values['grace-hours'], 24, true)!;
  const graceEnds = new Date(Date.now() + graceHours * 3_600_000);
  const key = generateApiKey();
  // The new key lives as long as the old one was meant to (a key created for 90 days is replaced by one for 90 days).
  const lifetimeMs = old.expiresAt ? old.expiresAt.getTime() - old.createdAt.getTime() : null;
  const oldValidUntil = old.expiresAt && old.expiresAt < graceEnds ? old.expiresAt : graceEnds;
  const replacement = await asOperator(db, async (tx) => {
    const created = await tx.apiKey.create({
      data: {
        organizationId: old.organizationId, label: old.label, prefix: displayPrefix(key), hash: hashApiKey(key),
        permissions: old.permissions, rotatedFromId: old.id, expiresAt: lifetimeMs === null ? null : new Date(Date.now() + lifetimeMs),
      },
    });
    // The old key's expiry only moves earlier, never later.
    await tx.apiKey.update({ where: { id: old.id }, data: { expiresAt: oldValidUntil } });
    return created;
  });
  console.log(JSON.stringify({ keyId: replacement.id, replaces: old.id, oldKeyValidUntil: oldValidUntil, expiresAt: replacement.expiresAt, permissions: old.permissions, apiKey: key }, null, 2));
  console.error('Store the apiKey now: it is not shown again.');
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  // Asking for help is not a mistake: the usage on stdout, exit 0.
  if ((command !== undefined && HELP.has(command)) || rest.includes('--help')) {
    console.log(USAGE);
    return;
  }
  if (command === 'permissions') {
    for (const [name, description] of Object.entries(PERMISSIONS)) console.log(`${name}\t${description}`);
    return;
  }
  const handler = { create, list, rotate, revoke }[command ?? ''];
  if (!handler) throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'warn');
  const { databaseUrl, stopEmbedded } = await prepareDatabase(config, logger);
  const db = createDatabase(databaseUrl, 1);
  try {
    await handler(db, rest);
  } finally {
    await db.$disconnect();
    await stopEmbedded?.();
  }
}

// Argument mistakes (ours, or node's parseArgs: unknown or malformed options) print the usage.
const isUsage = (error: unknown) => error instanceof UsageError || String((error as { code?: unknown } | null | undefined)?.code ?? '').startsWith('ERR_PARSE_ARGS');

main(process.argv.slice(2)).catch((error) => {
  console.error(isUsage(error) ? `${(error as Error).message}\n\n${USAGE}` : error);
  process.exit(isUsage(error) ? 2 : 1);
});
