// The embedded database's directory: private to this user, and held by one process at a time.
//
// PGlite is a single-process database: two processes opening the same directory each see
// their own copy, and whatever one writes the other never sees (or overwrites). So a
// process that opens DATA_DIR first takes DATA_DIR/outreach.lock, holding its pid (and
// the process's start time, so a reused pid is not mistaken for the holder) and, for the
// server, its URL. Another process finds the lock held and stops with one line naming
// the holder; a lock whose process is gone is taken over.
import { chmodSync, linkSync, lstatSync, mkdirSync, openSync, closeSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'outreach.lock';

export interface LockHolder {
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), to tell a reused pid apart. */
  start: string | null;
  /** What holds the directory: the server (HTTP and workers), a worker-only process, or the CLI. */
  kind: 'server' | 'worker' | 'cli';
  /** Where the server answers (null until it listens, and for the CLI and workers). */
  url: string | null;
  since: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(`${describeHolder(holder)} holds DATA_DIR ${dataDir}`);
    this.name = 'DataDirLockedError';
  }
}

export function describeHolder(holder: LockHolder): string {
  const where = holder.url ? `, ${holder.url}` : '';
  if (holder.kind === 'server') return `the server (pid ${holder.pid}${where})`;
  if (holder.kind === 'worker') return `a worker (pid ${holder.pid})`;
  return `the CLI (pid ${holder.pid})`;
}

export interface DataDirLock {
  readonly path: string;
  /** Records where the server answers, for the message another process prints. */
  setUrl(url: string): void;
  /** Removes the lock if this process still holds it (idempotent). */
  release(): void;
}

/** Private from the start: files this process creates are 0600, directories 0700. */
export function usePrivateUmask() {
  process.umask(0o077);
}

/**
 * Makes DATA_DIR (created if missing) 0700, every directory below it 0700 and every file
 * 0600. Symbolic links are left alone. The embedded database sets the modes of some files
 * it writes itself, so this runs again once it is open and after it is closed.
 */
export function tightenDataDir(dataDir: string) {
  const root = resolve(dataDir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const walk = (dir: string) => {
    chmodIfNeeded(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) chmodIfNeeded(path, 0o600);
    }
  };
  walk(root);
}

function chmodIfNeeded(path: string, mode: number) {
  try {
    if ((lstatSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
  } catch (error) {
    // A file the database removed in the meantime.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** The start time of a process (field 22 of /proc/<pid>/stat), or null where there is no /proc. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** True when the lock's process still runs (not merely a later process with the same pid). */
function holderIsAlive(holder: LockHolder): boolean {
  if (!Number.isInteger(holder.pid) || holder.pid <= 0) return false;
  // Our own pid in the file: an earlier life of this process id (a container's pid 1, say).
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = processStart(holder.pid);
  return !(holder.start && start && holder.start !== start);
}

function readHolder(path: string): { raw: string; holder: LockHolder } | null {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const holder = JSON.parse(raw) as LockHolder;
    return { raw, holder };
  } catch {
    // Unreadable (written by something else): treated as stale.
    return { raw, holder: { pid: 0, start: null, kind: 'server', url: null, since: '' } };
  }
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Takes DATA_DIR's lock or throws DataDirLockedError naming the live process holding it.
 * The lock file is written whole beside it and hard-linked into place, so whoever reads it
 * sees a complete record; a stale lock is removed under a second, short-lived lock so that
 * two processes taking over at once cannot both succeed.
 */
export function acquireDataDirLock(options: { dataDir: string; kind: LockHolder['kind']; url?: string | null }): DataDirLock {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  const takeover = `${path}.takeover`;
  const mine: LockHolder = { pid: process.pid, start: processStart(process.pid), kind: options.kind, url: options.url ?? null, since: new Date().toISOString() };
  const write = (holder: LockHolder) => {
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
    return tmp;
  };

  for (let attempt = 0; ; attempt += 1) {
    if (attempt > 50) throw new Error(`could not take ${path}: it keeps changing`);
    const tmp = write(mine);
    try {
      linkSync(tmp, path);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(tmp);
    }
    const current = readHolder(path);
    if (!current) continue;
    if (holderIsAlive(current.holder)) throw new DataDirLockedError(dataDir, current.holder);
    // Stale: remove it, unless another process is doing just that or already replaced it.
    try {
      closeSync(openSync(takeover, 'wx', 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        // A takeover lock left by a process that died in those few instructions.
        if (Date.now() - statSync(takeover).mtimeMs > 10_000) unlinkSync(takeover);
      } catch {
        // gone already
      }
      sleep(20);
      continue;
    }
    try {
      if (readHolder(path)?.raw === current.raw) unlinkSync(path);
    } finally {
      unlinkSync(takeover);
    }
  }

  let released = false;
  const holdsIt = () => {
    const current = readHolder(path);
    return current !== null && current.holder.pid === process.pid && current.holder.since === mine.since;
  };
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    try {
      if (holdsIt()) unlinkSync(path);
    } catch {
      // Leaving the file is harmless: the next process sees this pid gone.
    }
  };
  // Whatever way the process ends short of a kill, the lock goes with it.
  process.on('exit', release);
  return {
    path,
    setUrl(url) {
      if (released || !holdsIt()) return;
      mine.url = url;
      renameSync(write(mine), path);
    },
    release,
  };
}

/**
 * Before the embedded database is opened: a private umask, DATA_DIR 0700 with its
 * contents tightened, and the lock taken (DataDirLockedError when another process holds it).
 */
export function claimDataDir(options: { dataDir: string; kind: LockHolder['kind']; url?: string | null }): DataDirLock {
  usePrivateUmask();
  mkdirSync(resolve(options.dataDir), { recursive: true, mode: 0o700 });
  const lock = acquireDataDirLock(options);
  try {
    tightenDataDir(options.dataDir);
  } catch (error) {
    lock.release();
    throw error;
  }
  return lock;
}
