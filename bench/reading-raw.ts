// The reading benchmark's raw baseline (bench/reading.ts), run as its own process: bare imapflow
// holding one IMAP session per mailbox, INBOX selected and in IDLE, as a minimal reader would; on
// news, or after `pollMs` in IDLE (as the worker reads again after IMAP_POLL_MS), it selects the
// INBOX again, fetches the new messages' sources, prints `read <user> <count>` when there were any,
// and goes back to IDLE. READING_RAW names a JSON file of its settings (port, pollMs and the users' passwords).
import { readFileSync } from 'node:fs';
import { ImapFlow } from 'imapflow';

interface Settings {
  port: number;
  pollMs: number;
  users: Record<string, string>;
}

const settings = JSON.parse(readFileSync(process.env['READING_RAW'] ?? '', 'utf8')) as Settings;

async function hold(user: string, pass: string): Promise<void> {
  // A connection the server did not greet in time is tried again a second later (printed as `retried`).
  let c: ImapFlow;
  for (let attempt = 1; ; attempt++) {
    c = new ImapFlow({ host: '127.0.0.1', port: settings.port, secure: false, auth: { user, pass }, logger: false, disableAutoIdle: true });
    c.on('error', () => {});
    try {
      await c.connect();
      break;
    } catch (error) {
      c.close();
      if (attempt >= 10) throw error;
      process.stdout.write(`retried ${user}\n`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  let box = await c.mailboxOpen('INBOX', { readOnly: true });
  let next = box.uidNext;
  let news = false;
  let wake: (() => void) | null = null;
  c.on('exists', () => {
    news = true;
    wake?.();
  });
  const loop = async () => {
    for (;;) {
      // IDLE until the server reports new mail or pollMs (the next command ends the IDLE).
      if (!news) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          wake = resolve;
          timer = setTimeout(resolve, settings.pollMs);
          void c.idle().then(() => resolve(), () => resolve());
        });
        clearTimeout(timer);
      }
      wake = null;
      news = false;
      box = await c.mailboxOpen('INBOX', { readOnly: true });
      let read = 0;
      if (box.uidNext <= next) continue;
      for await (const m of c.fetch(`${next}:*`, { uid: true, source: true }, { uid: true })) {
        if (m.uid < next) continue;
        read += 1;
        next = m.uid + 1;
      }
      if (read) process.stdout.write(`read ${user} ${read}\n`);
    }
  };
  void loop().catch((error: unknown) => process.stdout.write(`failed ${user} ${(error as Error).message}\n`));
}

// All at once, as the worker starts its loops.
await Promise.all(Object.entries(settings.users).map(([user, pass]) => hold(user, pass)));
