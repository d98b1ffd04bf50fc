import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';

// How the embedded database is opened so that it stays small (docs/database.md, "The embedded
// database's memory"). No Prisma here: the memory benchmark's raw PGlite opens it the same way.

/**
 * PostgreSQL settings of the embedded database, added to PGlite's own start parameters.
 * - shared_buffers: WebAssembly memory only grows, and PostgreSQL touches all of its shared
 *   buffers when it starts: the default 128 MB were 128 MB of RSS from the first second, for
 *   a database whose files the operating system caches anyway (PGlite reads them through NODEFS).
 * - maintenance_work_mem: bounds what an index build of a migration takes (and keeps: the
 *   memory never shrinks back).
 * - wal_init_zero: a new 16 MB WAL segment is created with its last byte written instead of
 *   being filled with zeros, which stopped a statement (and every request) for about 400 ms
 *   every 16 MB of WAL (every few thousand leads uploaded).
 * docs/database.md, "The embedded database's memory".
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
  maintenance_work_mem: '16MB',
  wal_init_zero: 'off',
};

let baselineWasm = false;
/**
 * V8 compiles WebAssembly with its baseline compiler (Liftoff) and then recompiles hot
 * functions with TurboFan in background threads. For PostgreSQL's largest functions (the
 * parser, the executor's interpreter) that recompilation peaks at several hundred MB of
 * compiler memory, which glibc keeps in its arenas afterwards: 150-250 MB of a PGlite
 * process's RSS, and a peak above 1 GB on a fresh start. PGlite's statements take about 1.5
 * times as long on baseline code (0.14 instead of 0.09 ms of CPU a lead uploaded), a price
 * the embedded database pays for a predictable footprint (its statements are kept short:
 * see the lead upload); the test suite, which compiled PostgreSQL anew in every worker, got
 * faster. Set once, before the first PGlite
 * (and Prisma's query compiler, loaded after it) compiles; modules compiled before keep
 * their tiering. Both flags are needed at run time: the implication of --liftoff-only is
 * only resolved when V8 starts.
 */
const WASM_FLAGS = ['--no-wasm-dynamic-tiering', '--no-wasm-tier-up'];
function compileWasmOnce() {
  if (baselineWasm) return;
  baselineWasm = true;
  for (const flag of WASM_FLAGS) setFlagsFromString(flag);
}

/**
 * The options of the embedded database, for a data directory (omitted: in memory), once the
 * process compiles WebAssembly as the embedded database wants it (compileWasmOnce). Also what
 * the memory benchmark's raw PGlite opens (bench/memory-raw.ts).
 */
export function embeddedDatabaseOptions(dataDir?: string): PGliteOptions & { startParams?: string[] } {
  compileWasmOnce();
  return {
    ...(dataDir ? { dataDir } : {}),
    startParams: [...PGlite.defaultStartParams, ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
  };
}

// What the child process of createEmbeddedDataDir runs (an ES module given to `node -e`).
const INITDB_SCRIPT = `
const { PGlite } = await import(process.env.OUTREACH_PGLITE_URL);
const pglite = new PGlite({ dataDir: process.env.OUTREACH_PGLITE_DIR, startParams: JSON.parse(process.env.OUTREACH_PGLITE_START) });
await pglite.waitReady;
await pglite.close();
`;

/**
 * Creates the embedded database's files in an empty data directory, in a child process that
 * exits when they are written; a directory that holds a database already is left alone.
 * PGlite creates a database by running initdb in a second, temporary PGlite and copying its
 * files: in the server's own process that left 100-270 MB more RSS after a first start than
 * after a restart (the temporary instance's memory, held until a full garbage collection, and
 * the allocator's arenas after it), and a peak near 600 MB. A child's memory goes with it.
 */
export async function createEmbeddedDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const { startParams } = embeddedDatabaseOptions(dataDir);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [...WASM_FLAGS, '--input-type=module', '-e', INITDB_SCRIPT], {
      // Only what the script reads: the server's environment (its secrets) stays in the server.
      env: {
        OUTREACH_PGLITE_URL: import.meta.resolve('@electric-sql/pglite'),
        OUTREACH_PGLITE_DIR: dataDir,
        OUTREACH_PGLITE_START: JSON.stringify(startParams ?? []),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`creating the embedded database in ${dataDir} failed (${signal ?? `exit code ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}
