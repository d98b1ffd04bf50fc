import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEB_SCHEMA_FILE, webSchemaText } from './web-schema';

describe('the schema the web app is typed from', () => {
  it('is the gateway schema as it is now (run `npm run web:schema` after changing the schema)', () => {
    const checkedIn = readFileSync(WEB_SCHEMA_FILE, 'utf8');
    // A plain equality keeps the failure message short; the hint names the fix.
    expect(checkedIn === webSchemaText(), 'apps/web/src/graphql/schema.graphql is stale: run `npm run web:schema`').toBe(true);
  });
});
