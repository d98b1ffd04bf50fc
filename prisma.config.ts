// Prisma CLI configuration. The CLI is used for `prisma generate` only: migrations
// are applied by the WebAssembly schema engine through the driver adapter
// (packages/db/src/migrate.ts), because the native engine cannot be downloaded here.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
