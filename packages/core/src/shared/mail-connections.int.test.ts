// The mail adapters connect to the address their own lookup vetted (pinned), keep the host
// name for TLS, and refuse private addresses unless allowed, before opening any socket.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { startSmtpServer, type SmtpTestServer } from '../testing/smtp-server';
import { imapServerUnavailable, startImapServer, type ImapTestServer } from '../testing/imap-server';
import { createMailVerifier, MailLoginError } from './mail-verifier';
import { createMailSender, type OutgoingMessage } from './mail-sender';
import { createMailboxReader } from './mailbox-reader';
import type { LookupAll } from './outbound-guard';

const missingImap = imapServerUnavailable();
const USER = { username: 'box@out.test', password: 'box-secret' };
const BANNER = 'Pq9banner-marker';
// `.test` names never resolve through the system's DNS: reaching a server under one proves
// the connection went to the address the adapter's own lookup answered.
const HOST = 'mail.outreach.test';
const MESSAGE: OutgoingMessage = { from: { name: 'Box', address: USER.username }, to: 'lead@x.test', subject: 's', html: null, text: 't', messageId: 'pinned@out.test' };

let smtp: SmtpTestServer;
let imap: ImapTestServer | undefined;
let tcp: Server;
let tcpConnections = 0;

beforeAll(async () => {
  smtp = await startSmtpServer({ users: { [USER.username]: USER.password }, banner: BANNER });
  if (!missingImap) imap = await startImapServer({ users: { [USER.username]: USER.password }, greeting: BANNER });
  // A bare listener that counts connections and greets with the banner.
  tcp = createServer((socket) => {
    tcpConnections++;
    socket.on('error', () => {});
    socket.end(`220 ${BANNER}\r\n`, () => socket.destroy());
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
}, 30_000);
afterAll(async () => {
  await smtp?.close();
  await imap?.close();
  await new Promise((resolve) => tcp?.close(resolve));
});

function countingLookup(addresses: string[]) {
  const calls: string[] = [];
  const lookup: LookupAll = async (hostname) => {
    calls.push(hostname);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, calls };
}

const tcpPort = () => (tcp.address() as { port: number }).port;

describe('pinned mail connections', () => {
  it('the verifier and the sender connect to the looked-up address, once per connection', async () => {
    const { lookup, calls } = countingLookup(['127.0.0.1']);
    const verifier = createMailVerifier({ timeoutMs: 5_000, allowPrivateTargets: true, lookup });
    await verifier.verifySmtp({ host: HOST, port: smtp.port, ...USER });
    expect(calls).toEqual([HOST]);
    const sender = createMailSender({ timeoutMs: 5_000, allowPrivateTargets: true, lookup });
    try {
      const outcome = await sender.send({ mailboxId: 'm1', version: '1', smtp: { host: HOST, port: smtp.port, ...USER }, message: MESSAGE });
      expect(outcome.status).toBe('sent');
      expect(smtp.messages.at(-1)?.to).toEqual(['lead@x.test']);
    } finally {
      await sender.close();
    }
  });

  it('keeps the host name for TLS while connecting to the vetted address', async () => {
    const servernames: unknown[] = [];
    // Implicit TLS with smtp-server's built-in self-signed certificate.
    const server = new SMTPServer({
      secure: true,
      logger: false,
      authMethods: ['PLAIN', 'LOGIN'],
      onAuth(_auth, session, callback) {
        servernames.push(session.servername);
        callback(null, { user: 'x' });
      },
    });
    server.on('error', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.server.address() as { port: number }).port;
      const verifier = createMailVerifier({ timeoutMs: 5_000, rejectUnauthorized: false, allowPrivateTargets: true, lookup: countingLookup(['127.0.0.1']).lookup });
      await verifier.verifySmtp({ host: HOST, port, secure: true, ...USER });
      expect(servernames).toEqual([HOST]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it.skipIf(missingImap !== null)('the mailbox reader connects to the looked-up address', async () => {
    const { lookup, calls } = countingLookup(['127.0.0.1']);
    const reader = createMailboxReader({ timeoutMs: 5_000, allowPrivateTargets: true, lookup });
    const batch = await reader.fetchNew({ imap: { host: HOST, port: imap!.port, ...USER }, uidValidity: null, lastUid: 0n, max: 10 });
    expect(batch.messages).toEqual([]);
    expect(calls).toEqual([HOST]);
  });

  it('refuses a host with any private address before opening a socket, unless allowed', async () => {
    const before = tcpConnections;
    const settings = { host: HOST, port: tcpPort(), ...USER };
    const { lookup } = countingLookup(['8.8.8.8', '127.0.0.1']);
    const verifier = createMailVerifier({ timeoutMs: 5_000, allowPrivateTargets: false, lookup });
    const smtpError = await verifier.verifySmtp(settings).catch((e: unknown) => e);
    expect(smtpError).toBeInstanceOf(MailLoginError);
    expect((smtpError as MailLoginError).message).toBe(
      'SMTP server not allowed: its host is a private, loopback, link-local or reserved address (set ALLOW_PRIVATE_TARGETS=true to allow it)',
    );
    const imapError = await verifier.verifyImap({ ...settings, host: '127.0.0.1' }).catch((e: unknown) => e);
    expect((imapError as MailLoginError).message).toMatch(/^IMAP server not allowed: /);

    const sender = createMailSender({ timeoutMs: 5_000, allowPrivateTargets: false, lookup });
    const outcome = await sender.send({ mailboxId: 'm2', version: '1', smtp: settings, message: MESSAGE });
    expect(outcome).toEqual({ status: 'auth', code: null, message: expect.stringMatching(/^SMTP server not allowed: /) });
    await sender.close();

    const reader = createMailboxReader({ timeoutMs: 5_000, allowPrivateTargets: false, lookup });
    const readError = await reader.fetchNew({ imap: settings, uidValidity: null, lastUid: 0n, max: 1 }).catch((e: unknown) => e);
    expect((readError as MailLoginError).reason).toBe('auth');
    expect((readError as MailLoginError).message).toMatch(/^IMAP server not allowed: /);
    expect(tcpConnections).toBe(before);

    // Allowed: it connects, and what the listener said stays out of the answer.
    const allowed = createMailVerifier({ timeoutMs: 5_000, allowPrivateTargets: true, lookup: countingLookup(['127.0.0.1']).lookup });
    const failure = await allowed.verifySmtp(settings).catch((e: unknown) => e);
    expect(tcpConnections).toBe(before + 1);
    expect((failure as MailLoginError).message).toMatch(/^SMTP server unreachable: /);
    expect((failure as MailLoginError).message).not.toContain(BANNER);
  });

  it('answers a host name that does not resolve with a fixed message', async () => {
    const lookup: LookupAll = async () => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${BANNER}`), { code: 'ENOTFOUND' });
    };
    const verifier = createMailVerifier({ timeoutMs: 5_000, allowPrivateTargets: false, lookup });
    const error = await verifier.verifySmtp({ host: HOST, port: 25, ...USER }).catch((e: unknown) => e);
    expect((error as MailLoginError).message).toBe('SMTP server unreachable: its host name could not be resolved');
  });
});
