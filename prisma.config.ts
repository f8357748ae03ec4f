import { defineConfig } from 'prisma/config';

// Prisma 7 reads the connection from here; only `migrate deploy` (where the
// native engine is available) needs it. The app applies migrations itself.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost/unused' },
});
