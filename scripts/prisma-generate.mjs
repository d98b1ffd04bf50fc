// Runs `prisma generate` offline. Generate never runs the schema engine, but the
// CLI insists on locating one; pointing PRISMA_SCHEMA_ENGINE_BINARY at a placeholder
// stops it from trying to download the native binary (which cannot be fetched here).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const placeholder = join(root, 'node_modules', '.cache', 'outreach', 'schema-engine-placeholder');
if (!existsSync(placeholder)) {
  mkdirSync(dirname(placeholder), { recursive: true });
  writeFileSync(placeholder, '#!/bin/sh\necho "placeholder: migrations use @prisma/schema-engine-wasm" >&2\nexit 1\n', { mode: 0o755 });
}
const result = spawnSync(process.execPath, [join(root, 'node_modules', 'prisma', 'build', 'index.js'), 'generate'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    // Generators (prisma-pothos-types) are found on PATH, as under `npm run`.
    PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
    PRISMA_SCHEMA_ENGINE_BINARY: placeholder,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});
process.exit(result.status ?? 1);
