// Installation settings stored in the database (installation_settings), each value encrypted
// with the secret box, read with the environment's values over them: a variable that is set
// wins over the stored value, so an operator's explicit environment is never silently ignored.
import type { PrismaClient, Tx } from '@outreach/db';
import type { SecretBox } from './secret-box';
import {
  INSTALLATION_SETTINGS,
  INSTALLATION_SETTING_KEYS,
  isInstallationSettingKey,
  type InstallationSettingKey,
  oauthProviderConfig,
  type InstallationSettingValues,
} from './oauth/oauth-settings';
import type { OAuthConfigSource } from './oauth/oauth-client.service';

/** A stored setting the current encryption key cannot open. */
export class InstallationSettingUnreadableError extends Error {
  override readonly name = 'InstallationSettingUnreadableError';
  constructor(readonly key: string) {
    super(`cannot decrypt the stored setting ${key}: was the encryption key changed? Set it again with \`outreach settings set ${key} …\``);
  }
}

interface Store {
  db: PrismaClient | Tx;
  secrets: SecretBox;
}

/**
 * The row that ties a database to the encryption key its secrets are written with: a known
 * text encrypted with the key, written by the first process that starts on the database. Its
 * key is not a setting (readStoredSettings leaves it out).
 */
const KEY_CHECK = 'encryption_key_check';

/** This process's encryption key is not the one the database's secrets were written with. */
export class EncryptionKeyMismatchError extends Error {
  override readonly name = 'EncryptionKeyMismatchError';
  constructor() {
    super(
      'the encryption key is not the one this database was set up with: every process of an installation needs the same key ' +
        '(ENCRYPTION_KEY, ENCRYPTION_KEY_FILE, or DATA_DIR/encryption.key); restore the original key, or mailbox passwords, OAuth tokens and webhook secrets cannot be read',
    );
  }
}

/**
 * Refuses a key that differs from the database's (EncryptionKeyMismatchError). The first
 * process records its key's check; when the database already holds secrets without a check (it
 * was set up before this check existed), the key must open one of them. Two processes starting
 * with different keys on an empty database: one records, the other is refused.
 */
export async function checkEncryptionKey(options: Store): Promise<'recorded' | 'matches'> {
  const { db, secrets } = options;
  const opens = (valueEnc: string) => {
    try {
      return secrets.decrypt(valueEnc);
    } catch {
      return null;
    }
  };
  const existing = await db.installationSetting.findUnique({ where: { key: KEY_CHECK } });
  if (existing) {
    if (opens(existing.valueEnc) !== KEY_CHECK) throw new EncryptionKeyMismatchError();
    return 'matches';
  }
  const [secret] = await db.$queryRawUnsafe<{ value_enc: string }[]>(
    `SELECT smtp_password_enc AS value_enc FROM email_accounts WHERE smtp_password_enc <> '' LIMIT 1`,
  );
  if (secret && opens(secret.value_enc) === null) throw new EncryptionKeyMismatchError();
  await db.installationSetting.createMany({ data: [{ key: KEY_CHECK, valueEnc: secrets.encrypt(KEY_CHECK) }], skipDuplicates: true });
  // Another process may have recorded its own key first.
  const recorded = await db.installationSetting.findUniqueOrThrow({ where: { key: KEY_CHECK } });
  if (opens(recorded.valueEnc) !== KEY_CHECK) throw new EncryptionKeyMismatchError();
  return 'recorded';
}

/**
 * The stored values (decrypted), keys this version does not know left out, and the keys of
 * `skip` neither read nor decrypted (those the environment sets).
 */
export async function readStoredSettings(options: Store & { skip?: ReadonlySet<string> }): Promise<InstallationSettingValues> {
  const rows = await options.db.installationSetting.findMany();
  const values: InstallationSettingValues = {};
  for (const row of rows) {
    if (!isInstallationSettingKey(row.key) || options.skip?.has(row.key)) continue;
    try {
      values[row.key] = options.secrets.decrypt(row.valueEnc);
    } catch {
      throw new InstallationSettingUnreadableError(row.key);
    }
  }
  return values;
}

/** The settings the environment sets (a non-empty value). */
function fromEnvironment(env: InstallationSettingValues | undefined): InstallationSettingValues {
  const values: InstallationSettingValues = {};
  for (const key of INSTALLATION_SETTING_KEYS) {
    const value = env?.[key];
    if (value !== undefined && value !== '') values[key] = value;
  }
  return values;
}

/** Every setting's value: the environment's when set there, else the stored one. */
export async function readInstallationSettings(options: Store & { env?: InstallationSettingValues }): Promise<InstallationSettingValues> {
  const env = fromEnvironment(options.env);
  const stored = await readStoredSettings({ ...options, skip: new Set(Object.keys(env)) });
  return { ...stored, ...env };
}

/** Why `key`/`value` cannot be stored, or null. */
export function installationSettingProblem(key: string, value: string): string | null {
  if (!isInstallationSettingKey(key)) return `unknown setting ${key}; known: ${INSTALLATION_SETTING_KEYS.join(', ')}`;
  const problem = INSTALLATION_SETTINGS[key].problem(value);
  return problem ? `invalid setting ${key}: ${problem}` : null;
}

/** Stores (encrypted) one setting; throws when the key is unknown or the value invalid. */
export async function storeInstallationSetting(options: Store & { key: string; value: string }): Promise<InstallationSettingKey> {
  const value = options.value.trim();
  const problem = installationSettingProblem(options.key, value);
  if (problem) throw new Error(problem);
  const key = options.key as InstallationSettingKey;
  const valueEnc = options.secrets.encrypt(value);
  await options.db.installationSetting.upsert({ where: { key }, create: { key, valueEnc }, update: { valueEnc } });
  return key;
}

/** Removes a stored setting; false when none was stored. */
export async function removeInstallationSetting(options: { db: PrismaClient | Tx; key: string }): Promise<boolean> {
  const removed = await options.db.installationSetting.deleteMany({ where: { key: options.key } });
  return removed.count > 0;
}

export interface InstallationSettingState {
  key: InstallationSettingKey;
  secret: boolean;
  description: string;
  /** Where the value in force comes from. */
  source: 'environment' | 'stored' | 'unset';
  /** The value in force (never for a secret one). */
  value?: string;
  /** Set in the environment and stored both: the stored value is not used. */
  overridden: boolean;
}

/** Each known setting, where its value comes from, and its value unless secret (`settings get`). */
export async function describeInstallationSettings(options: Store & { env?: InstallationSettingValues }): Promise<InstallationSettingState[]> {
  const env = fromEnvironment(options.env);
  const stored = await readStoredSettings(options);
  return INSTALLATION_SETTING_KEYS.map((key) => {
    const spec = INSTALLATION_SETTINGS[key];
    const value = env[key] ?? stored[key];
    const source = env[key] !== undefined ? 'environment' : stored[key] !== undefined ? 'stored' : 'unset';
    return {
      key,
      secret: spec.secret,
      description: spec.description,
      source,
      ...(value !== undefined && !spec.secret ? { value } : {}),
      overridden: env[key] !== undefined && stored[key] !== undefined,
    };
  });
}

/** The OAuth client's config source over these settings: read at each call, so `settings set` needs no restart. */
export function installationOAuthConfig(options: Store & { env?: InstallationSettingValues }): OAuthConfigSource {
  return async (provider) => oauthProviderConfig(provider, await readInstallationSettings(options));
}
