// `outreach settings` as an operator runs it: a child process on its own embedded database.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledEntry } from './testing/compiled';

const root = resolve(import.meta.dirname, '..', '..', '..');

function cli(dataDir: string, args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production', ...options.env };
  delete env['DATABASE_URL'];
  const r = spawnSync(process.execPath, [compiledEntry('cli'), ...args], { env: env as NodeJS.ProcessEnv, input: options.input, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('outreach settings', () => {
  it('stores a secret read from stdin without ever printing it, shows where values come from, and refuses a bad value in one line', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-settings-'));
    const set = cli(dataDir, ['settings', 'set', 'microsoft_oauth_client_secret', '-'], { input: 'very-secret-value\n' });
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ status: 'success', key: 'MICROSOFT_OAUTH_CLIENT_SECRET', stored: true });

    const get = cli(dataDir, ['settings', 'get'], { env: { MICROSOFT_OAUTH_CLIENT_ID: 'from-env' } });
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).not.toContain('very-secret-value');
    const states = JSON.parse(get.stdout) as { key: string; source: string; value?: string }[];
    expect(states.find((s) => s.key === 'MICROSOFT_OAUTH_CLIENT_SECRET')).toMatchObject({ source: 'stored', secret: true });
    expect(states.find((s) => s.key === 'MICROSOFT_OAUTH_CLIENT_ID')).toMatchObject({ source: 'environment', value: 'from-env' });
    expect(states.find((s) => s.key === 'MICROSOFT_OAUTH_TENANT')).toMatchObject({ source: 'unset' });

    const bad = cli(dataDir, ['settings', 'set', 'MICROSOFT_OAUTH_ISSUER', 'ftp://login.example']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('error: invalid setting MICROSOFT_OAUTH_ISSUER: must be an http:// or https:// URL');
  });
});

describe('one encryption key per installation', () => {
  it('refuses to store a setting with another key than the one the database was set up with, naming the cause', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-settings-'));
    const keyA = 'a'.repeat(64);
    const keyB = 'b'.repeat(64);
    const first = cli(dataDir, ['settings', 'set', 'MICROSOFT_OAUTH_TENANT', 'organizations'], { env: { ENCRYPTION_KEY: keyA } });
    expect(first.code, first.stderr).toBe(0);

    const other = cli(dataDir, ['settings', 'set', 'MICROSOFT_OAUTH_TENANT', 'common'], { env: { ENCRYPTION_KEY: keyB } });
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/^error: the encryption key is not the one this database was set up with/);
    // Nothing was written with the wrong key: the stored value still reads with the right one.
    const get = cli(dataDir, ['settings', 'get', 'MICROSOFT_OAUTH_TENANT'], { env: { ENCRYPTION_KEY: keyA } });
    expect(get.code, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout)).toEqual([expect.objectContaining({ key: 'MICROSOFT_OAUTH_TENANT', source: 'stored', value: 'organizations' })]);
  });
});

describe('outreach --version', () => {
  it("prints the product's version (package.json) without opening a database, as /healthz shows it", () => {
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    for (const args of [['--version'], ['version']]) {
      const r = cli('/nonexistent/outreach-data', args);
      expect([r.code, r.stdout]).toEqual([0, `outreach ${version}\n`]);
    }
  });
});
