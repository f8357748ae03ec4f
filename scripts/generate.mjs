// Runs `prisma generate` offline. Prisma 7 tries to download its native schema
// engine before generating even though generation never uses it; pointing
// PRISMA_SCHEMA_ENGINE_BINARY at any existing file skips that download.
import { spawnSync } from 'node:child_process';

const result = spawnSync('npx', ['prisma', 'generate'], {
  stdio: 'inherit',
  env: { PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
});
process.exit(result.status ?? 1);
