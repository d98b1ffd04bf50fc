// The owner's first sign-up as a user meets it: `npm start` prints a one-time setup link while
// nobody has signed up, the link creates the owner in the first start's organization, and the
// CLI prints new links and lists people.
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

const env = (dataDir: string, extra: Record<string, string> = {}) =>
  ({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', NODE_ENV: 'production', PUBLIC_URL: 'https://outreach.example.com', ...extra }) as NodeJS.ProcessEnv;

async function start(dataDir: string, port: number) {
  const child = spawn(process.execPath, [compiledEntry('main')], { env: env(dataDir, { PORT: String(port), HOST: '127.0.0.1' }) });
  children.push(child);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const deadline = Date.now() + 90_000;
  while (!output.includes('"msg":"listening"')) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { output, stop: async () => (child.kill('SIGTERM'), exited) };
}

const cli = (dataDir: string, args: string[]) => {
  const r = spawnSync(process.execPath, [compiledEntry('cli'), ...args], { env: env(dataDir), encoding: 'utf8', timeout: 90_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe.skipIf(usingPostgres())('the setup link', { timeout: 300_000 }, () => {
  it('is printed while nobody has signed up and creates the owner of the first start\'s organization; the CLI prints more', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outreach-setup-'));
    const port = await freePort();
    const first = await start(dataDir, port);
    const key = /API key:\s+([0-9a-f-]{35})/.exec(first.output)?.[1];
    const link = /(https:\/\/outreach\.example\.com\/setup#token=[A-Za-z0-9_-]{43})/.exec(first.output)?.[1];
    expect(key).toBeDefined();
    expect(link).toBeDefined();
    const token = link!.split('#token=')[1]!;
    // The token is in the banner only, never in a log line.
    expect(first.output.split('\n').filter((l) => l.startsWith('{') && l.includes(token))).toEqual([]);

    const answer = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation($t: String!) { setUpOwner(token: $t, email: "owner@example.com", name: "Olga", password: "correct horse battery", organizationName: "Acme") { organizationId organizationName } }',
        variables: { t: token },
      }),
    });
    // PUBLIC_URL is https: the cookie is Secure.
    expect(answer.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    const owner = ((await answer.json()) as any).data.setUpOwner;
    expect(owner.organizationName).toBe('Acme');
    // The first start's key and the owner share the organization.
    const keyWorkspaces = (await (await fetch(`http://127.0.0.1:${port}/api/v1/workspaces`, { headers: { 'x-api-key': key! } })).json()) as any;
    expect(keyWorkspaces.workspaces.map((w: { name: string }) => w.name)).toEqual(['Default workspace']);
    await first.stop();

    const second = await start(dataDir, port);
    expect(second.output).not.toContain('/setup#token=');
    await second.stop();

    const people = cli(dataDir, ['people', 'list']);
    expect(people.code, people.stderr).toBe(0);
    expect(JSON.parse(people.stdout)).toEqual([expect.objectContaining({ email: 'owner@example.com', role: 'OWNER', organization_id: owner.organizationId })]);
    const more = cli(dataDir, ['people', 'setup-link', '--org', owner.organizationId]);
    expect(more.code, more.stderr).toBe(0);
    expect(JSON.parse(more.stdout)).toMatchObject({ setup_link: expect.stringMatching(/^https:\/\/outreach\.example\.com\/setup#token=[A-Za-z0-9_-]{43}$/), organization_id: owner.organizationId });
  });
});
