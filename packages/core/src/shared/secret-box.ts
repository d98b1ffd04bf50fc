import { createCipheriv, createDecipheriv, createHmac, createSecretKey, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** Encrypts secrets at rest (webhook secrets, mailbox passwords) with AES-256-GCM. */
export interface SecretBox {
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
  /**
   * A 128-bit HMAC-SHA256 tag (base64url, 22 characters) of `data` under a subkey derived
   * from the same key (HKDF), for links that must not be guessable or forgeable
   * (tracking pixels, unsubscribe links).
   */
  mac(data: string): string;
  /** Whether `tag` is mac(data), compared in constant time. */
  verifyMac(data: string, tag: string): boolean;
}

const VERSION = 'v1';
/** How many opened ciphertexts a secret box keeps (see decrypt). */
const OPENED_CACHE_SIZE = 10_000;

/**
 * `key` is 32 bytes. Ciphertexts read `v1:<iv>:<tag>:<data>` (base64url), with a fresh
 * 12-byte IV each time; tampering makes decrypt throw.
 */
export function createSecretBox(options: { key: Buffer }): SecretBox {
  if (options.key.length !== 32) throw new Error('the encryption key must be 32 bytes');
  // A separate key for MACs, so a tag never reveals anything about the encryption key. Both as
  // key objects: Node checks a Buffer key on every use (about 5 times the cost of the HMAC of a
  // tracking link itself), and every e-mail signs two links and decrypts its mailbox's password.
  const macKey = createSecretKey(Buffer.from(hkdfSync('sha256', options.key, Buffer.alloc(0), 'outreach link mac v1', 32)));
  const key = createSecretKey(options.key);
  // Ciphertexts already opened (a ciphertext opens to one plaintext under one key): every
  // e-mail sent decrypts its mailbox's password. Plaintexts held here are the ones the mail
  // connection pools hold anyway; a full cache starts over.
  const opened = new Map<string, string>();
  const mac = (data: string) => createHmac('sha256', macKey).update(data, 'utf8').digest().subarray(0, 16).toString('base64url');
  return {
    mac,
    verifyMac(data, tag) {
      const expected = Buffer.from(mac(data));
      const given = Buffer.from(tag);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
    },
    decrypt(ciphertext) {
      const known = opened.get(ciphertext);
      if (known !== undefined) return known;
      const plaintext = open(ciphertext);
      if (opened.size >= OPENED_CACHE_SIZE) opened.clear();
      opened.set(ciphertext, plaintext);
      return plaintext;
    },
  };
  function open(ciphertext: string): string {
    const [version, iv, tag, data] = ciphertext.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a ciphertext of this secret box');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
