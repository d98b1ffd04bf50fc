import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadEnv } from './env';
import { loadEncryptionKey } from './services';

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'outreach-key-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the encryption key', () => {
  it('is read from ENCRYPTION_KEY_FILE (a container secret), base64 or hex, and equals the same key given inline', () => {
    const dir = tempDir();
    const key = randomBytes(32);
    writeFileSync(join(dir, 'b64'), `${key.toString('base64')}\n`);
    writeFileSync(join(dir, 'hex'), key.toString('hex'));
    const env = (extra: Record<string, string>) => loadEnv({ NODE_ENV: 'test', DATA_DIR: join(dir, 'data'), ...extra });
    expect(loadEncryptionKey(env({ ENCRYPTION_KEY_FILE: join(dir, 'b64') }))).toEqual(key);
    expect(loadEncryptionKey(env({ ENCRYPTION_KEY_FILE: join(dir, 'hex') }))).toEqual(key);
    expect(loadEncryptionKey(env({ ENCRYPTION_KEY: key.toString('base64') }))).toEqual(key);
  });

  it('refuses a key file that is missing or not 32 bytes, naming the setting, and never creates one', () => {
    const dir = tempDir();
    const env = (file: string) => loadEnv({ NODE_ENV: 'test', DATA_DIR: join(dir, 'data'), ENCRYPTION_KEY_FILE: file });
    expect(() => loadEncryptionKey(env(join(dir, 'absent')))).toThrow(/ENCRYPTION_KEY_FILE .*absent: cannot read it \(ENOENT\)/);
    expect(() => readFileSync(join(dir, 'absent'))).toThrow();
    writeFileSync(join(dir, 'short'), randomBytes(16).toString('base64'));
    expect(() => loadEncryptionKey(env(join(dir, 'short')))).toThrow(/ENCRYPTION_KEY_FILE .*short must hold 32 bytes/);
  });

  it('refuses ENCRYPTION_KEY and ENCRYPTION_KEY_FILE together', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'key'), randomBytes(32).toString('base64'));
    const env = loadEnv({ NODE_ENV: 'test', ENCRYPTION_KEY: randomBytes(32).toString('base64'), ENCRYPTION_KEY_FILE: join(dir, 'key') });
    expect(() => loadEncryptionKey(env)).toThrow('ENCRYPTION_KEY and ENCRYPTION_KEY_FILE are both set: set one');
  });

  it('without either, is created once under DATA_DIR (mode 0600) and read back on the next start', () => {
    const dir = tempDir();
    const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: dir });
    const first = loadEncryptionKey(env);
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, 'encryption.key')).mode & 0o777).toBe(0o600);
    expect(loadEncryptionKey(env)).toEqual(first);
  });
});
