// checkEncryptionKey: the processes of one installation must share its encryption key.
import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestMailbox, createTestTenant, useTestDatabase } from '../testing/index';
import { checkEncryptionKey, EncryptionKeyMismatchError } from './installation-settings';
import { createSecretBox } from './secret-box';

const db = useTestDatabase();
const box = () => createSecretBox({ key: randomBytes(32) });

describe('the encryption key check', () => {
  beforeEach(async () => {
    // Each case starts from a database that no process has checked yet, with no mailbox.
    await db.prisma.installationSetting.deleteMany({});
    await db.prisma.emailAccount.deleteMany({});
  });

  it('records the first key, accepts it again, and refuses any other', async () => {
    const a = box();
    expect(await checkEncryptionKey({ db: db.prisma, secrets: a })).toBe('recorded');
    expect(await checkEncryptionKey({ db: db.prisma, secrets: a })).toBe('matches');
    await expect(checkEncryptionKey({ db: db.prisma, secrets: box() })).rejects.toBeInstanceOf(EncryptionKeyMismatchError);
    expect(await checkEncryptionKey({ db: db.prisma, secrets: a })).toBe('matches');
  });

  it('lets exactly one of two processes starting at once with different keys through', async () => {
    const results = await Promise.allSettled([checkEncryptionKey({ db: db.prisma, secrets: box() }), checkEncryptionKey({ db: db.prisma, secrets: box() })]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(EncryptionKeyMismatchError);
  });

  it('on a database set up before the check, takes only a key that opens its mailbox passwords', async () => {
    const original = box();
    const { base } = await createTestTenant({ db });
    const mailbox = await createTestMailbox({ ...base, email: 'sender@example.com' });
    await db.prisma.emailAccount.update({ where: { id: mailbox.id }, data: { smtpPasswordEnc: original.encrypt('hunter2') } });

    await expect(checkEncryptionKey({ db: db.prisma, secrets: box() })).rejects.toThrow(/not the one this database was set up with/);
    expect(await db.prisma.installationSetting.count()).toBe(0);
    expect(await checkEncryptionKey({ db: db.prisma, secrets: original })).toBe('recorded');
  });
});
