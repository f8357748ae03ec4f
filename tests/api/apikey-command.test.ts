// The operator command, run as an operator would, against the test database.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RunningService } from '../../src/service.ts';
import { restClient } from '../helpers/http.ts';
import { startTestService } from '../helpers/service.ts';

const run = promisify(execFile);
let service: RunningService;

function apikey(...args: string[]) {
  return run('npx', ['tsx', 'src/cli/apikey.ts', ...args], {
    env: { ...process.env, DATABASE_URL: inject('databaseUrl'), LOG_LEVEL: 'silent' },
  });
}

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

describe('npm run apikey', () => {
  const orgName = `cli-org-${Date.now()}`;

  it('creates an organization and a key shown once, stored only as a hash', async () => {
    const { stdout } = await apikey('create', '--org', orgName, '--permissions', 'consumer_cases:read,tasks:read', '--label', 'ci');
    const created = JSON.parse(stdout);
    expect(created.organization.name).toBe(orgName);
    expect(created.permissions).toEqual(['consumer_cases:read', 'tasks:read']);
    expect(created.apiKey).toMatch(/^cpk_[\w-]{43}$/);
    const stored = await service.db.apiKey.findUniqueOrThrow({ where: { id: created.keyId } });
    expect(JSON.stringify(stored)).not.toContain(created.apiKey);
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);

    const rest = restClient(service.url, created.apiKey);
    expect((await rest('GET', '/v1/consumer-cases')).status).toBe(200);
    expect((await rest('POST', '/v1/consumer-cases', { email: 'a@b.co' })).status).toBe(403);

    const { stdout: listed } = await apikey('list', '--org', orgName);
    expect(listed).toContain(`${created.apiKey.slice(0, 12)}…`);
    expect(listed).not.toContain(created.apiKey);
    expect(listed).toContain('active');

    const second = JSON.parse((await apikey('create', '--org', orgName, '--permissions', 'all')).stdout);
    expect(second.organization.id).toBe(created.organization.id);

    await apikey('revoke', created.keyId);
    expect((await rest('GET', '/v1/consumer-cases')).status).toBe(401);
    expect((await restClient(service.url, second.apiKey)('GET', '/v1/consumer-cases')).status).toBe(200);
  }, 60_000);

  it('expires keys, records their last use, and rotates them with a grace period', async () => {
    const created = JSON.parse((await apikey('create', '--org', orgName, '--permissions', 'consumer_cases:read', '--expires-in-days', '30')).stdout);
    expect(Date.parse(created.expiresAt) - Date.now()).toBeGreaterThan(29.9 * 24 * 3600_000);
    const rest = restClient(service.url, created.apiKey);
    expect((await rest('GET', '/v1/consumer-cases')).status).toBe(200);
    await expect.poll(async () => (await service.db.apiKey.findUniqueOrThrow({ where: { id: created.keyId } })).lastUsedAt).not.toBeNull();

    // Rotation: the new key works at once, the old one until its grace period ends.
    const rotated = JSON.parse((await apikey('rotate', created.keyId)).stdout);
    expect(rotated).toMatchObject({ replaces: created.keyId, permissions: ['consumer_cases:read'] });
    // The replacement lives as long as the old key was meant to: 30 days from now.
    expect(Math.abs(Date.parse(rotated.expiresAt) - (Date.now() + 30 * 24 * 3600_000))).toBeLessThan(120_000);
    expect(Math.abs(Date.parse(rotated.oldKeyValidUntil) - (Date.now() + 24 * 3600_000))).toBeLessThan(120_000);
    expect((await restClient(service.url, rotated.apiKey)('GET', '/v1/consumer-cases')).status).toBe(200);
    expect((await rest('GET', '/v1/consumer-cases')).status).toBe(200);
    const { stdout: listed } = await apikey('list', '--org', orgName);
    expect(listed).toMatch(new RegExp(`${created.keyId}.*active until ${rotated.oldKeyValidUntil}`));
    expect(listed).toMatch(new RegExp(`${created.keyId}.*last used 20`));

    // No grace: the old key stops now. An expired key cannot be rotated.
    const again = JSON.parse((await apikey('rotate', rotated.keyId, '--grace-hours', '0')).stdout);
    expect((await restClient(service.url, rotated.apiKey)('GET', '/v1/consumer-cases')).status).toBe(401);
    expect((await restClient(service.url, again.apiKey)('GET', '/v1/consumer-cases')).status).toBe(200);
    await expect(apikey('rotate', rotated.keyId)).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('has already expired') });

    // An expiry in the past refuses the key like a revoked one.
    await service.db.apiKey.update({ where: { id: again.keyId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await restClient(service.url, again.apiKey)('GET', '/v1/consumer-cases')).status).toBe(401);
    await expect(apikey('create', '--org', orgName, '--permissions', 'all', '--expires-in-days', '-1')).rejects.toMatchObject({ code: 2 });

    // The operator's changes are in the audit trail (without the key's hash); the last-used clock is not.
    const trail = await service.db.auditEvent.findMany({ where: { resourceType: 'api_keys', resourceId: created.keyId }, orderBy: { createdAt: 'asc' } });
    expect(trail.map((event) => [event.action, event.actor])).toEqual([['CREATE', 'operator command'], ['UPDATE', 'operator command']]);
    expect(trail[1]!.after).toMatchObject({ id: created.keyId, expires_at: expect.any(String) });
    expect(JSON.stringify(trail)).not.toMatch(/"hash"/);
  }, 90_000);

  it('refuses unknown permissions and missing arguments with usage', async () => {
    await expect(apikey('create', '--org', orgName, '--permissions', 'everything:delete')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown permission(s): everything:delete'),
    });
    await expect(apikey('create', '--permissions', 'all')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--org is required') });
    await expect(apikey('revoke', 'cpk_nothing')).rejects.toMatchObject({ code: 2 });
  }, 60_000);

  it('prints its usage when asked for help', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['create', '--help']]) {
      const { stdout, stderr } = await apikey(...args);
      expect(stdout, args.join(' ')).toContain('npm run apikey -- create --org <name>');
      expect(stdout).toContain('npm run apikey -- rotate');
      expect(stderr).not.toMatch(/Unknown (command|option)/);
    }
  }, 60_000);
});
