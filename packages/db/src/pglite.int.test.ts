import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDatabase } from './client';
import { PGLITE_SETTINGS } from './pglite-options';
import { schemaEnginesOpened } from './engine';
import { applyMigrations } from './migrate';

// The embedded database's memory (docs/database.md): these run on PGlite whatever DATABASE_URL says.
describe('the embedded database', () => {
  it('starts with small shared buffers, and a restart on the same data directory loads no schema engine', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-pglite-'));
    try {
      const first = await createDatabase({ dataDir });
      try {
        for (const [name, value] of Object.entries(PGLITE_SETTINGS)) {
          const [row] = await first.prisma.$queryRawUnsafe<{ value: string }[]>('SELECT current_setting($1) AS value', name);
          expect(row?.value, name).toBe(value);
        }
        expect(PGLITE_SETTINGS).toMatchObject({ shared_buffers: '16MB', wal_init_zero: 'off' });
        const opened = schemaEnginesOpened();
        const fresh = await applyMigrations({ db: first });
        expect(fresh.applied.length).toBe(fresh.total);
        expect(schemaEnginesOpened()).toBe(opened + 1);
      } finally {
        await first.close();
      }
      const again = await createDatabase({ dataDir });
      try {
        const opened = schemaEnginesOpened();
        const restart = await applyMigrations({ db: again });
        expect(restart.applied).toEqual([]);
        expect(restart.total).toBeGreaterThan(0);
        expect(schemaEnginesOpened()).toBe(opened);
        expect(await again.prisma.organization.count()).toBe(0);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
