// The raw baseline of bench/memory.ts, a process of its own: PGlite alone, opened with the
// product's options (embeddedDatabaseOptions: its settings and WebAssembly compilation), without
// Prisma or the gateway, behind a node:http server.
// GET /healthz answers at once; POST /insert?n=5000 inserts n leads-like rows in one statement
// (json_to_recordset, as the product's upload does); POST /stop closes PGlite and exits.
import http from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import { createEmbeddedDataDir, embeddedDatabaseOptions } from '../packages/db/src/pglite-options';

const dataDir = process.env['DATA_DIR']!;
const port = Number(process.env['PORT']);
await createEmbeddedDataDir(dataDir);
const pglite = new PGlite(embeddedDatabaseOptions(dataDir));
await pglite.waitReady;
await pglite.exec(`CREATE TABLE IF NOT EXISTS leads (
  id text PRIMARY KEY, campaign_id text NOT NULL, email text NOT NULL, email_normalized text NOT NULL,
  first_name text, last_name text, company_name text, custom_variables jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(), UNIQUE (campaign_id, email_normalized))`);
let batch = 0;

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/healthz') {
    res.end('ok');
    return;
  }
  void (async () => {
    if (url.pathname === '/insert') {
      const n = Number(url.searchParams.get('n') ?? 5000);
      const campaign = `c${batch++}`;
      const rows = Array.from({ length: n }, (_, i) => ({
        id: `${campaign}-${i}`,
        email: `Lead${i}@Example.com`,
        first_name: `F${i}`,
        last_name: `L${i}`,
        company_name: 'Acme',
        custom_variables: { industry: 'SaaS' },
      }));
      const result = await pglite.query(
        `INSERT INTO leads (id, campaign_id, email, email_normalized, first_name, last_name, company_name, custom_variables)
         SELECT t.id, $1, t.email, lower(t.email), t.first_name, t.last_name, t.company_name, t.custom_variables
           FROM json_to_recordset($2::json) AS t(id text, email text, first_name text, last_name text, company_name text, custom_variables jsonb)
         ON CONFLICT (campaign_id, email_normalized) DO NOTHING`,
        [campaign, JSON.stringify(rows)],
      );
      res.end(String(result.affectedRows ?? 0));
    } else if (url.pathname === '/stop') {
      res.end('bye');
      await pglite.close();
      server.close();
      process.exit(0);
    } else {
      res.statusCode = 404;
      res.end();
    }
  })().catch((error: unknown) => {
    res.statusCode = 500;
    res.end(String(error));
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write('raw ready\n'));
