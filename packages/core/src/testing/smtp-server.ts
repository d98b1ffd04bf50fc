// A real SMTP server on loopback (the `smtp-server` package), for tests of mailbox
// logins and sends. Plain text only: STARTTLS is disabled so nodemailer never upgrades.
import { SMTPServer } from 'smtp-server';

export interface SmtpTestMessage {
  from: string | null;
  to: string[];
  raw: string;
}

export interface SmtpTestServer {
  port: number;
  /** username → password; edit it to make a later login fail or pass. */
  users: Map<string, string>;
  messages: SmtpTestMessage[];
  close(): Promise<void>;
}

export async function startSmtpServer(options: { users: Record<string, string> }): Promise<SmtpTestServer> {
  const users = new Map(Object.entries(options.users));
  const messages: SmtpTestMessage[] = [];
  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      const expected = auth.username === undefined ? undefined : users.get(auth.username);
      if (expected !== undefined && auth.password === expected) return callback(null, { user: auth.username });
      const error = Object.assign(new Error('Invalid username or password'), { responseCode: 535 });
      return callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // A client dropping mid-session is normal in tests; without a listener it would crash.
  server.on('error', () => {});
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('smtp test server has no port');
  return {
    port: address.port,
    users,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
