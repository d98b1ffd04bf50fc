// A real SMTP server on loopback (the `smtp-server` package), for tests of mailbox
// logins and sends. Plain text only: STARTTLS is disabled so nodemailer never upgrades.
import { SMTPServer } from 'smtp-server';

export interface SmtpTestMessage {
  from: string | null;
  to: string[];
  raw: string;
}

/** An answer the server gives to RCPT TO for one address instead of accepting it. */
export interface SmtpTestRejection {
  code: number;
  message: string;
  /** How many times to answer so; then the address is accepted. Infinity by default. */
  times?: number;
}

export interface SmtpTestServer {
  port: number;
  /** Lower-case recipient address → the answer to give it (4xx, 5xx) on demand. */
  rejections: Map<string, SmtpTestRejection>;
  /** username → password; edit it to make a later login fail or pass. */
  users: Map<string, string>;
  messages: SmtpTestMessage[];
  /**
   * When set, the server's answer to RCPT TO (per address) or to a message body (the
   * message already kept in `messages`) waits for the promise it returns; a rejection with a
   * `responseCode` is given as the answer instead. Holds a transaction at one point (a
   * worker that stopped there) for as long as a test needs.
   */
  beforeAnswer: ((event: { phase: 'rcpt' | 'body'; to: string[] }) => Promise<void>) | null;
  /** Every login attempt, in order: the user, the SASL mechanism, and whether it was accepted. */
  logins: { user: string; method: string; accepted: boolean }[];
  close(): Promise<void>;
}

/**
 * XOAUTH2 logins, validated against an OAuth provider: `userinfoUrl` is asked (GET,
 * `Authorization: Bearer <token>`) about each login's token, and must answer 200 with the
 * login's user as `email`.
 */
export interface SmtpOAuth2Options {
  userinfoUrl: string;
}

async function tokenOwner(userinfoUrl: string, token: string): Promise<string | null> {
  try {
    const response = await fetch(userinfoUrl, { headers: { authorization: `Bearer ${token}` } });
    if (!response.ok) return null;
    const body = (await response.json()) as { email?: unknown; active?: unknown };
    return body.active !== false && typeof body.email === 'string' ? body.email : null;
  } catch {
    return null;
  }
}

/**
 * `banner`: extra text in the server's 220 greeting (tests check it never reaches an answer);
 * `oauth2`: also take XOAUTH2 logins, validated by an OAuth provider.
 */
/** `deliver`: called with each message before the server answers its body (e.g. to put it in a local IMAP mailbox). */
export async function startSmtpServer(options: { users: Record<string, string>; banner?: string; oauth2?: SmtpOAuth2Options; deliver?: (message: SmtpTestMessage) => Promise<void> }): Promise<SmtpTestServer> {
  const users = new Map(Object.entries(options.users));
  const messages: SmtpTestMessage[] = [];
  const rejections = new Map<string, SmtpTestRejection>();
  const api: SmtpTestServer = {
    port: 0,
    users,
    rejections,
    messages,
    beforeAnswer: null,
    logins: [],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const answer = (event: { phase: 'rcpt' | 'body'; to: string[] }, callback: (error?: Error | null) => void) => {
    const hook = api.beforeAnswer;
    if (!hook) return callback();
    hook(event).then(() => callback(), (error: Error) => callback(error));
  };
  const server = new SMTPServer({
    authMethods: options.oauth2 ? ['PLAIN', 'LOGIN', 'XOAUTH2'] : ['PLAIN', 'LOGIN'],
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    ...(options.banner === undefined ? {} : { banner: options.banner }),
    onAuth(auth, _session, callback) {
      const user = auth.username ?? '';
      const refuse = () => {
        api.logins.push({ user, method: auth.method, accepted: false });
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      };
      const accept = () => {
        api.logins.push({ user, method: auth.method, accepted: true });
        callback(null, { user });
      };
      if (auth.method === 'XOAUTH2') {
        if (!options.oauth2 || !auth.accessToken) return refuse();
        void tokenOwner(options.oauth2.userinfoUrl, auth.accessToken).then((owner) => {
          if (owner !== null && owner.toLowerCase() === user.toLowerCase()) return accept();
          api.logins.push({ user, method: auth.method, accepted: false });
          // As Gmail answers a bad token: a 334 challenge carrying the error, then 535 once the client answers it.
          callback(null, { data: { status: '401', schemes: 'bearer' } });
        });
        return;
      }
      const expected = auth.username === undefined ? undefined : users.get(auth.username);
      if (expected !== undefined && auth.password === expected) return accept();
      return refuse();
    },
    onRcptTo(address, _session, callback) {
      const rejection = rejections.get(address.address.toLowerCase());
      if (rejection && (rejection.times ?? Infinity) > 0) {
        if (rejection.times !== undefined) rejection.times -= 1;
        return callback(Object.assign(new Error(rejection.message), { responseCode: rejection.code }));
      }
      return answer({ phase: 'rcpt', to: [address.address] }, callback);
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
        const delivered = options.deliver ? options.deliver(messages[messages.length - 1]!) : Promise.resolve();
        delivered.then(() => answer({ phase: 'body', to: session.envelope.rcptTo.map((r) => r.address) }, callback), (error: Error) => callback(error));
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
  api.port = address.port;
  return api;
}
