// The sender's `beforeEndOfData` hook, against a real SMTP server on loopback: it starts only
// once the server has taken the envelope and answered DATA, and the body's final "." waits for
// it; a hook that fails cuts the body off, so the server keeps nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSmtpServer, type SmtpTestServer } from '../testing/smtp-server';
import { createMailSender, type MailSender, type OutgoingMessage } from './mail-sender';

const USER = { username: 'box@out.test', password: 'box-secret' };
const SMTP = () => ({ host: '127.0.0.1', port: smtp.port, ...USER });
const message = (to: string): OutgoingMessage => ({
  from: { name: 'Box', address: USER.username },
  to,
  subject: 'Hello',
  html: '<p>Hello there</p>',
  text: 'Hello there',
  messageId: `${to.split('@')[0]}@out.test`,
});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** One send from the test mailbox to `to`, with the hook. */
const sendTo = (to: string, beforeEndOfData: () => Promise<void>) =>
  sender.send({ mailboxId: 'm1', version: 'v1', smtp: SMTP(), message: message(to), beforeEndOfData });

let smtp: SmtpTestServer;
let sender: MailSender;

beforeAll(async () => {
  smtp = await startSmtpServer({ users: { [USER.username]: USER.password } });
});
beforeEach(() => {
  sender = createMailSender({ timeoutMs: 10_000, allowPrivateTargets: true });
});
afterEach(async () => {
  smtp.beforeAnswer = null;
  smtp.rejections.clear();
  smtp.messages.length = 0;
  await sender?.close();
});
afterAll(async () => {
  await smtp?.close();
});

describe('the hook before the end of a message body', () => {
  it('starts only after the server accepted the recipient, and the body ends only once it is done', async () => {
    let releaseRcpt!: () => void;
    const rcptAnswered = new Promise<void>((resolve) => (releaseRcpt = resolve));
    smtp.beforeAnswer = async ({ phase }) => {
      if (phase === 'rcpt') await rcptAnswered;
    };
    let hookStarted = false;
    let finishHook!: () => void;
    const sending = sendTo('lead1@x.test', () => {
      hookStarted = true;
      return new Promise<void>((resolve) => (finishHook = resolve));
    });
    // The message is built and waiting, the server has not answered RCPT TO: no hook yet.
    await pause(300);
    expect(hookStarted).toBe(false);
    releaseRcpt();
    await expect.poll(() => hookStarted, { timeout: 5_000 }).toBe(true);
    // The body is out but for its end: the server has not taken the message.
    await pause(300);
    expect(smtp.messages).toHaveLength(0);
    finishHook();
    await expect(sending).resolves.toMatchObject({ status: 'sent' });
    expect(smtp.messages.map((m) => m.to)).toEqual([['lead1@x.test']]);
    expect(smtp.messages[0]!.raw).toContain('Hello there');
  });

  it('never starts for a recipient the server refuses', async () => {
    smtp.rejections.set('gone@x.test', { code: 550, message: 'No such user' });
    let hookStarted = false;
    const outcome = await sendTo('gone@x.test', async () => {
      hookStarted = true;
    });
    expect(outcome).toMatchObject({ status: 'rejected', code: 550 });
    expect(hookStarted).toBe(false);
  });

  it('a hook that fails cuts the body off: the server keeps nothing, and the next send goes through', async () => {
    const outcome = await sendTo('lead2@x.test', async () => {
      await pause(20);
      throw new Error('the claim was taken over');
    });
    expect(outcome.status).not.toBe('sent');
    await pause(200);
    expect(smtp.messages).toHaveLength(0);
    const next = await sendTo('lead3@x.test', async () => {});
    expect(next).toMatchObject({ status: 'sent' });
    expect(smtp.messages.map((m) => m.to)).toEqual([['lead3@x.test']]);
  });
});
