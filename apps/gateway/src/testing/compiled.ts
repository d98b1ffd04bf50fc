// The compiled gateway, as production runs it (`npm run build`: apps/gateway/dist). Tests that start the
// server or the CLI as a process run these files, built first when missing or older than their sources.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
let built = false;

/** The compiled entry (`main`: the server, `cli`: the CLI), built once per test process when stale. */
export function compiledEntry(name: 'main' | 'cli'): string {
  if (!built) {
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build.mjs'), '--if-stale', '--gateway'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0) throw new Error(`scripts/build.mjs failed:\n${r.stdout}${r.stderr}`);
    built = true;
  }
  return join(REPO_ROOT, 'apps', 'gateway', 'dist', `${name}.js`);
}
