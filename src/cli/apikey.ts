// Operator command: `npm run apikey -- <create|list|revoke> ...`. The only way
// to create organizations and keys (there is deliberately no HTTP endpoint).
import { parseArgs } from 'node:util';
import { displayPrefix, generateApiKey, hashApiKey } from '../auth/api-keys.ts';
import { ALL_PERMISSIONS, isPermission, PERMISSIONS } from '../auth/permissions.ts';
import { loadConfig } from '../config.ts';
import { createDatabase, type Database } from '../db/client.ts';
import { createLogger } from '../logger.ts';
import { prepareDatabase } from '../service.ts';

const USAGE = `Usage:
  npm run apikey -- create --org <name> --permissions <p1,p2,...|all> [--label <text>]
  npm run apikey -- list [--org <name>]
  npm run apikey -- revoke <key id or prefix>
  npm run apikey -- permissions

create makes the organization when it does not exist yet and prints the key once.`;

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
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, permissions: { type: 'string' }, label: { type: 'string' } } });
  const orgName = values.org?.trim();
  if (!orgName) throw new UsageError('--org is required');
  const permissions = parsePermissions(values.permissions);
  const organization = await db.organization.upsert({ where: { name: orgName }, create: { name: orgName }, update: {} });
  const key = generateApiKey();
  const record = await db.apiKey.create({
    data: { organizationId: organization.id, label: values.label ?? null, prefix: displayPrefix(key), hash: hashApiKey(key), permissions },
  });
  console.log(JSON.stringify({ organization: { id: organization.id, name: organization.name }, keyId: record.id, permissions, apiKey: key }, null, 2));
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
    console.log([k.id, k.organization.name, `${k.prefix}…`, k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active', k.permissions.join(','), k.label ?? ''].join('\t'));
  }
}

async function revoke(db: Database, args: string[]) {
  const target = args[0];
  if (!target) throw new UsageError('revoke needs a key id or prefix');
  const byId = /^[0-9a-f-]{36}$/i.test(target);
  const { count } = await db.apiKey.updateMany({
    where: { ...(byId ? { id: target } : { prefix: target }), revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw new UsageError(`No active key matches ${target}`);
  console.log(`Revoked ${count} key(s).`);
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command === 'permissions') {
    for (const [name, description] of Object.entries(PERMISSIONS)) console.log(`${name}\t${description}`);
    return;
  }
  const handler = { create, list, revoke }[command ?? ''];
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

main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof UsageError ? `${error.message}\n\n${USAGE}` : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
