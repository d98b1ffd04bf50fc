// npm run db:migration -- <name>
// Writes prisma/migrations/<timestamp>_<name>/migration.sql with the SQL that takes
// the existing migrations to the current prisma/schema.prisma. The diff runs on a
// throw-away in-memory PGlite (the schema engine's shadow database), so no server is needed.
import { createDatabase } from './client';
import { createMigration } from './migrate';

const name = process.argv.slice(2).join('_');
if (!name) {
  console.error('usage: npm run db:migration -- <name>');
  process.exit(2);
}
const db = await createDatabase({});
try {
  const result = await createMigration({ db, name });
  if (!result) console.log('schema.prisma and the migrations agree: no migration written');
  else console.log(`wrote ${result.directory}/migration.sql\n\n${result.sql}`);
} finally {
  await db.close();
}
