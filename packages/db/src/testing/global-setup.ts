// Runs once before the integration tests. On PostgreSQL (DATABASE_URL set) it applies the
// migrations once; on PGlite every worker migrates its own in-memory database.
import { applyMigrations } from '../migrate';
import { createDatabase } from '../client';

export default async function setup() {
  const url = process.env['DATABASE_URL'];
  if (!url) return;
  const db = await createDatabase({ url, poolSize: 2 });
  try {
    await applyMigrations({ db });
  } finally {
    await db.close();
  }
}
