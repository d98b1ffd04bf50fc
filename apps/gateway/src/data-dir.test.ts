// DATA_DIR's lock (one process at a time, stale locks taken over) and its private modes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE, tightenDataDir } from './data-dir';

const children: ChildProcess[] = [];
const held: { release(): void }[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const l of held.splice(0)) l.release();
});

const tempDataDir = () => join(mkdtempSync(join(tmpdir(), 'outreach-lock-unit-')), 'data');
const modeOf = (path: string) => lstatSync(path).mode & 0o777;

function writeLock(dataDir: string, holder: Record<string, unknown>) {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ start: null, kind: 'server', url: 'http://127.0.0.1:3000', since: '2020-01-01T00:00:00.000Z', ...holder }));
}

/** A live process that is not this one. */
function liveProcess(): number {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

function deadPid(): number {
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(gone.stdout);
}

function acquire(dataDir: string, kind: 'server' | 'cli' = 'cli') {
  const lock = acquireDataDirLock({ dataDir, kind });
  held.push(lock);
  return lock;
}

describe('acquireDataDirLock', () => {
  it('refuses while a live process holds the directory, naming its pid and URL', () => {
    const dataDir = tempDataDir();
    const pid = liveProcess();
    writeLock(dataDir, { pid });
    let error: unknown;
    try {
      acquire(dataDir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toBe(`the server (pid ${pid}, http://127.0.0.1:3000) holds DATA_DIR ${dataDir}`);
    // The holder's lock is untouched.
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(pid);
  });

  it('takes over a lock whose process is gone, one with this very pid (an earlier life), and an unreadable one', () => {
    for (const stale of [{ pid: deadPid() }, { pid: process.pid }]) {
      const dataDir = tempDataDir();
      writeLock(dataDir, stale);
      const lock = acquire(dataDir);
      expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid, kind: 'cli', url: null });
    }
    const dataDir = tempDataDir();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, LOCK_FILE), 'garbage');
    expect(JSON.parse(readFileSync(acquire(dataDir).path, 'utf8')).pid).toBe(process.pid);
  });

  it.skipIf(!existsSync('/proc/self/stat'))('takes over a lock whose pid now belongs to another process (a different start time)', () => {
    const dataDir = tempDataDir();
    writeLock(dataDir, { pid: liveProcess(), start: '1' });
    expect(JSON.parse(readFileSync(acquire(dataDir).path, 'utf8')).pid).toBe(process.pid);
  });

  it('records the URL, and release removes only its own lock', () => {
    const dataDir = tempDataDir();
    const lock = acquire(dataDir, 'server');
    lock.setUrl('http://localhost:3000');
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid, kind: 'server', url: 'http://localhost:3000' });
    expect(modeOf(lock.path)).toBe(0o600);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);

    const again = acquire(dataDir);
    const other = liveProcess();
    writeLock(dataDir, { pid: other });
    again.release();
    expect(JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')).pid).toBe(other);
  });
});

describe('tightenDataDir', () => {
  it('creates DATA_DIR 0700 and makes what is in it 0700 (directories) and 0600 (files), leaving symbolic links alone', () => {
    const fresh = tempDataDir();
    tightenDataDir(fresh);
    expect(modeOf(fresh)).toBe(0o700);

    const dataDir = tempDataDir();
    mkdirSync(join(dataDir, 'base', '5'), { recursive: true });
    writeFileSync(join(dataDir, 'PG_VERSION'), '17');
    writeFileSync(join(dataDir, 'base', '5', '1259'), '');
    const outside = join(mkdtempSync(join(tmpdir(), 'outreach-outside-')), 'shared.txt');
    writeFileSync(outside, 'not ours');
    chmodSync(outside, 0o644);
    symlinkSync(outside, join(dataDir, 'link'));
    for (const [path, mode] of [[dataDir, 0o755], [join(dataDir, 'base'), 0o777], [join(dataDir, 'base', '5'), 0o755], [join(dataDir, 'PG_VERSION'), 0o666], [join(dataDir, 'base', '5', '1259'), 0o644]] as const) chmodSync(path, mode);

    tightenDataDir(dataDir);
    expect([dataDir, join(dataDir, 'base'), join(dataDir, 'base', '5')].map(modeOf)).toEqual([0o700, 0o700, 0o700]);
    expect([join(dataDir, 'PG_VERSION'), join(dataDir, 'base', '5', '1259')].map(modeOf)).toEqual([0o600, 0o600]);
    expect(statSync(outside).mode & 0o777).toBe(0o644);
  });
});
