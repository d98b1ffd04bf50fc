// The product as a user runs it: `npm start` and the CLI as child processes, on
// the embedded PGlite (or the suite's PostgreSQL when DATABASE_URL is set).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledEntry } from './testing/compiled';
import { freePort, usingPostgres } from '@outreach/core/testing';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function env(dataDir: string, extra: Record<string, string> = {}) {
  const base: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'production', ...extra };
  return base as NodeJS.ProcessEnv;
}

function cli(dataDir: string, args: string[]) {
  const r = spawnSync(process.execPath, [compiledEntry('cli'), ...args], { env: env(dataDir), encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function startProduct(dataDir: string, port: number) {
  const child = spawn(process.execPath, [compiledEntry('main')], { env: env(dataDir, { PORT: String(port), HOST: '127.0.0.1', SHUTDOWN_TIMEOUT_MS: '5000' }) });
  children.push(child);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const deadline = Date.now() + 60_000;
  while (!output.includes('"msg":"listening"')) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, output: () => output, exited };
}


describe.skipIf(usingPostgres())('npm start on the embedded database', () => {
  it('prints a key once on first start, shuts down cleanly on SIGTERM finishing in-flight requests, and keeps its data', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-data-'));
    const port = await freePort();
    const first = await startProduct(dataDir, port);
    const key = /API key:\s+([0-9a-f-]{35})/.exec(first.output())?.[1];
    expect(key).toBeDefined();
    const created = await fetch(`http://127.0.0.1:${port}/api/v1/workspaces/add`, {
      method: 'POST',
      headers: { 'x-api-key': key!, 'content-type': 'application/json' },
      body: JSON.stringify({ workspace_name: 'Persisted' }),
    });
    expect(created.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    // A request in flight when SIGTERM arrives still gets its answer.
    const inFlight = fetch(`http://127.0.0.1:${port}/api/v1/workspaces`, { headers: { 'x-api-key': key! } });
    await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('stopped cleanly');

    // Same data directory: no new key, the old key and the workspace are still there.
    const second = await startProduct(dataDir, port);
    expect(second.output()).not.toContain('API key:');
    const listed = (await (await fetch(`http://127.0.0.1:${port}/api/v1/workspaces`, { headers: { 'x-api-key': key! } })).json()) as { workspaces: { name: string }[] };
    expect(listed.workspaces.map((w) => w.name)).toEqual(['Default workspace', 'Persisted']);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });
});

// Seven CLI runs, each opening PGlite: slow on a busy machine.
describe('CLI', { timeout: 240_000 }, () => {
  it('init prints an organization, workspace and working key as JSON; keys create, list and revoke manage keys', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-cli-'));
    const init = cli(dataDir, ['init', '--name', 'Acme', '--lead-allowance', '5000']);
    expect(init.code, init.stderr).toBe(0);
    const org = JSON.parse(init.stdout) as { organization_id: string; workspace_id: string; api_key: string; api_key_id: string };
    expect(org.api_key).toMatch(/^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/);
    expect(org.organization_id).toMatch(/^[0-9a-f]{24}$/);

    const second = cli(dataDir, ['keys', 'create', '--org', org.organization_id, '--name', 'zapier']);
    expect(second.code, second.stderr).toBe(0);
    const secondKey = JSON.parse(second.stdout) as { api_key_id: string; api_key: string };
    expect(secondKey.api_key).not.toBe(org.api_key);

    const list = JSON.parse(cli(dataDir, ['keys', 'list', '--org', org.organization_id]).stdout) as { name: string; prefix: string; last_used_at: string | null; revoked_at: string | null }[];
    // Neither key has authenticated a request yet.
    expect(list.map((k) => [k.name, k.prefix, k.last_used_at, k.revoked_at])).toEqual([
      ['default', org.api_key.slice(0, 8), null, null],
      ['zapier', secondKey.api_key.slice(0, 8), null, null],
    ]);
    expect(JSON.stringify(list)).not.toContain(org.api_key);

    const revoke = cli(dataDir, ['keys', 'revoke', secondKey.api_key_id]);
    expect(revoke.code, revoke.stderr).toBe(0);
    const again = cli(dataDir, ['keys', 'revoke', secondKey.api_key_id]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('no active key');

    const allowance = cli(dataDir, ['org', 'set-allowance', '--org', org.organization_id, '--lead-allowance', '250']);
    expect(JSON.parse(allowance.stdout)).toMatchObject({ lead_allowance: 250 });

    const bad = cli(dataDir, ['keys', 'create', '--org', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--org <organization_id> must be a 24-character hex id');
  });
});
