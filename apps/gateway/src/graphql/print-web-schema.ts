// `npm run web:schema`: writes the schema the web app is typed from, then the typed
// introspection gql.tada reads (apps/web/src/graphql/graphql-env.d.ts).
import { writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WEB_SCHEMA_FILE, webSchemaText } from './web-schema';

writeFileSync(WEB_SCHEMA_FILE, webSchemaText());
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const tada = spawnSync(process.execPath, [`${root}node_modules/gql.tada/bin/cli.js`, 'generate', 'output', '--tsconfig', 'apps/web/tsconfig.json'], { cwd: root, stdio: 'inherit' });
process.exit(tada.status ?? 1);
