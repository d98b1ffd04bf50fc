import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Encrypts secrets at rest (webhook secrets, mailbox passwords) with AES-256-GCM. */
export interface SecretBox {
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
}

const VERSION = 'v1';

/**
 * `key` is 32 bytes. Ciphertexts read `v1:<iv>:<tag>:<data>` (base64url), with a fresh
 * 12-byte IV each time; tampering makes decrypt throw.
 */
export function createSecretBox(options: { key: Buffer }): SecretBox {
  if (options.key.length !== 32) throw new Error('the encryption key must be 32 bytes');
  return {
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', options.key, iv);
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
    },
    decrypt(ciphertext) {
      const [version, iv, tag, data] = ciphertext.split(':');
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a ciphertext of this secret box');
      const decipher = createDecipheriv('aes-256-gcm', options.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
