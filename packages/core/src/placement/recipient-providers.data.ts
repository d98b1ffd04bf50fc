import type { RecipientProvider } from './recipient-providers.schemas';

/**
 * Recipient providers a placement test can seed, with the spec's neutral identifiers in
 * place of brand names. One line per provider; the groups and counts are derived.
 */
export const RECIPIENT_PROVIDERS: readonly Readonly<RecipientProvider>[] = Object.freeze([
  { recipient_type: 'PERSONAL_PROVIDERA', name: 'Provider A (personal)', account_class: 'PERSONAL' },
  { recipient_type: 'PROVIDERA', name: 'Provider A (business)', account_class: 'PROFESSIONAL' },
  { recipient_type: 'PROVIDERB', name: 'Provider B (business)', account_class: 'PROFESSIONAL' },
]);
