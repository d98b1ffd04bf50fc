// A real IMAP server for tests: Debian's Dovecot, started in a temporary directory
// on a free loopback port (see /work/shared/docs/local-mail-servers.md).
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const run = promisify(execFile);

export const DOVECOT_BINARY = '/usr/sbin/dovecot';

/** Why the IMAP tests cannot run here, or null when they can. */
export function imapServerUnavailable(): string | null {
  return existsSync(DOVECOT_BINARY) ? null : `${DOVECOT_BINARY} is missing (apt-get install -y dovecot-imapd); IMAP tests skipped`;
}

export interface ImapTestServer {
  port: number;
  dir: string;
  /** Sets (or adds) a mailbox's password and reloads Dovecot, so the next login sees it. */
  setPassword(user: string, password: string): Promise<void>;
  /** The logins Dovecot accepted so far, in order, with their SASL mechanism (from its log). */
  logins(): Promise<{ user: string; method: string }[]>;
  /** The sessions open now (logged in, not yet disconnected), counted by user (from its log). */
  openSessions(): Promise<Record<string, number>>;
  /** Ends `user`'s open sessions from the server's side (their IMAP processes killed), as a server restart or a dropped network would. How many. */
  dropSessions(user: string): Promise<number>;
  close(): Promise<void>;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`dovecot did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * XOAUTH2 / OAUTHBEARER logins, validated by Dovecot's `oauth2` passdb against an OAuth
 * provider: `url` is asked about each login's bearer token (`mode` `auth`: GET with
 * `Authorization: Bearer <token>`, as a userinfo endpoint takes it; `post`: an RFC 7662
 * introspection POST of `token=<token>`), and the answer's `email` must be the login's user
 * and its `active` true. The tests use `auth` against the local provider's /userinfo:
 * oauth2-mock-server's /introspect reads JSON bodies only, so it never sees the form-encoded
 * token of a `post` (and its answer would not depend on the token).
 */
export interface ImapOAuth2Options {
  url: string;
  mode?: 'auth' | 'post';
  /** The SASL mechanisms offered for tokens: both by default (as Gmail); `['xoauth2']` as Outlook. */
  mechanisms?: ('xoauth2' | 'oauthbearer')[];
}

const mechanismsOf = (oauth2: ImapOAuth2Options) => (oauth2.mechanisms ?? ['xoauth2', 'oauthbearer']).join(' ');

function oauth2Config(oauth2: ImapOAuth2Options): string {
  return `introspection_mode = ${oauth2.mode ?? 'auth'}
introspection_url = ${oauth2.url}
username_attribute = email
active_attribute = active
active_value = true
`;
}

const SPECIAL_USE_FOLDERS = `namespace inbox {
  inbox = yes
  mailbox Junk {
    special_use = \\Junk
    auto = create
  }
  mailbox Trash {
    special_use = \\Trash
    auto = create
  }
}
`;

/**
 * Limits for `sessions` sessions at once (the reading benchmark keeps one per mailbox): Dovecot's
 * defaults (100 processes a service, 1,024 IMAP processes, 1,000 clients) hold about a hundred.
 */
function limitsFor(sessions: number): string {
  return `default_process_limit = ${sessions + 100}
default_client_limit = ${4 * sessions + 1000}
default_vsz_limit = 0
service imap {
  process_limit = ${sessions + 100}
}
`;
}

function config(dir: string, port: number, greeting?: string, oauth2?: ImapOAuth2Options, sessions?: number): string {
  return `${greeting === undefined ? '' : `login_greeting = ${greeting}\n`}${sessions ? limitsFor(sessions) : ''}base_dir = ${dir}/run
state_dir = ${dir}/run/state
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login${oauth2 ? ` ${mechanismsOf(oauth2)}` : ''}
log_path = ${dir}/dovecot.log
mail_location = maildir:${dir}/mail/%u
default_login_user = dovenull
default_internal_user = dovecot
default_internal_group = dovecot
first_valid_uid = 0
auth_cache_size = 0
# Tests log in with wrong passwords on purpose; Dovecot's failure delay and per-IP
# penalty would stall the next logins past the verifier's timeout.
auth_failure_delay = 0
login_trusted_networks = 127.0.0.0/8
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
${oauth2 ? '  # Tokens are the oauth2 passdb\'s only.\n  mechanisms = plain login\n' : ''}}
${
  oauth2
    ? `passdb {
  driver = oauth2
  mechanisms = ${mechanismsOf(oauth2)}
  args = ${dir}/oauth2.conf
}
`
    : ''
}userdb {
  driver = static
  args = uid=dovecot gid=dovecot home=${dir}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
# Without access to this socket the auth process disables its per-IP failure penalty.
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service stats {
  unix_listener stats-reader {
    mode = 0666
  }
  unix_listener stats-writer {
    mode = 0666
  }
}
`;
}

/** The sessions logged in and not yet disconnected, from Dovecot's log: user, session id, IMAP process. */
async function openSessionsOf(dir: string): Promise<{ user: string; session: string; pid: number }[]> {
  const log = await readFile(join(dir, 'dovecot.log'), 'utf8').catch(() => '');
  const open = new Map<string, { user: string; session: string; pid: number }>();
  for (const m of log.matchAll(/imap-login: Info: Login: user=<([^>]*)>.*mpid=(\d+).*session=<([^>]+)>/g)) open.set(m[3]!, { user: m[1]!, session: m[3]!, pid: Number(m[2]) });
  for (const m of log.matchAll(/imap\([^)]*\)<\d+><([^>]+)>: Info: Disconnected/g)) open.delete(m[1]!);
  // A killed process logs no "Disconnected" line: its master notes the signal instead.
  for (const m of log.matchAll(/service\(imap\): child (\d+) killed with signal/g)) for (const [id, s] of open) if (s.pid === Number(m[1])) open.delete(id);
  return [...open.values()];
}

/**
 * Starts Dovecot with these mailboxes (user → password); `greeting` replaces its "Dovecot ready."
 * greeting; `oauth2` also takes XOAUTH2 / OAUTHBEARER logins validated by an OAuth provider
 * (a user needs no password for those, and its mail directory is made at its first login);
 * `specialUse`: INBOX with special-use Junk and Trash folders (made at each login), as a
 * provider's filter uses them. Throws when Dovecot is missing: check imapServerUnavailable() first.
 */
export async function startImapServer(options: {
  users: Record<string, string>;
  greeting?: string;
  oauth2?: ImapOAuth2Options;
  specialUse?: boolean;
  /** Room for this many sessions at once (Dovecot's defaults hold about a hundred). */
  sessions?: number;
}): Promise<ImapTestServer> {
  const missing = imapServerUnavailable();
  if (missing) throw new Error(missing);
  const dir = await mkdtemp(join(tmpdir(), 'outreach-dovecot-'));
  await chmod(dir, 0o755);
  const users = new Map(Object.entries(options.users));
  const usersFile = join(dir, 'users');
  const writeUsers = () => writeFile(usersFile, [...users].map(([u, p]) => `${u}:{PLAIN}${p}\n`).join(''), { mode: 0o644 });
  await writeUsers();
  await mkdir(join(dir, 'mail'), { recursive: true });
  const { stdout } = await run('id', ['-u', 'dovecot']).catch(() => ({ stdout: '' }));
  const { stdout: gid } = await run('id', ['-g', 'dovecot']).catch(() => ({ stdout: '' }));
  if (stdout.trim() && gid.trim()) await chown(join(dir, 'mail'), Number(stdout.trim()), Number(gid.trim()));
  const port = await freePort();
  if (options.oauth2) await writeFile(join(dir, 'oauth2.conf'), oauth2Config(options.oauth2), { mode: 0o644 });
  await writeFile(join(dir, 'dovecot.conf'), config(dir, port, options.greeting, options.oauth2, options.sessions) + (options.specialUse ? SPECIAL_USE_FOLDERS : ''));
  // Dovecot daemonizes and its children keep inherited pipes open, so stdio is ignored
  // (execFile would wait for those pipes forever); the forking parent exits at once.
  await new Promise<void>((resolve, reject) => {
    const child = spawn(DOVECOT_BINARY, ['-c', join(dir, 'dovecot.conf')], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`dovecot exited with ${code}; see ${dir}/dovecot.log`))));
  });
  await waitForPort(port, 10_000);
  return {
    port,
    dir,
    async setPassword(user, password) {
      users.set(user, password);
      await writeUsers();
      // The auth process re-reads a passwd-file only when its mtime (whole seconds) moves and
      // not on every login, so two edits in a second were missed: a reload (SIGHUP) restarts it.
      const pid = Number((await readFile(join(dir, 'run', 'master.pid'), 'utf8')).trim());
      process.kill(pid, 'SIGHUP');
      await new Promise((r) => setTimeout(r, 300));
      await waitForPort(port, 10_000);
    },
    async logins() {
      const log = await readFile(join(dir, 'dovecot.log'), 'utf8').catch(() => '');
      return [...log.matchAll(/imap-login: Info: Login: user=<([^>]*)>, method=([A-Z0-9-]+)/g)].map((m) => ({ user: m[1]!, method: m[2]! }));
    },
    async openSessions() {
      const byUser: Record<string, number> = {};
      for (const { user } of await openSessionsOf(dir)) byUser[user] = (byUser[user] ?? 0) + 1;
      return byUser;
    },
    async dropSessions(user) {
      const mine = (await openSessionsOf(dir)).filter((s) => s.user === user);
      for (const s of mine) {
        try {
          process.kill(s.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      return mine.length;
    },
    async close() {
      const pid = Number((await readFile(join(dir, 'run', 'master.pid'), 'utf8').catch(() => '')).trim());
      if (pid > 0) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
        // Wait for the master to exit so the temp dir is not removed under it.
        for (let i = 0; i < 100; i++) {
          try {
            process.kill(pid, 0);
          } catch {
            break;
          }
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
