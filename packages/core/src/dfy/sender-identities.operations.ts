import { defineOperation } from '../shared/operation';
import {
  BASE_PATTERNS,
  FURTHER_PATTERNS,
  generateSenderIdentities as buildSenderIdentities,
  MIDDLE_PATTERNS,
} from './sender-identities.rules';
import {
  GenerateSenderIdentitiesInput,
  GenerateSenderIdentitiesOutput,
  MAX_SENDER_PROFILES,
  SENDER_PREFIX_TOTAL,
} from './sender-identities.schemas';

const shown = (patterns: readonly string[]) => patterns.map((p) => `\`${p.replace(/[{}]/g, '')}\``).join(', ');

export const generateSenderIdentities = defineOperation({
  name: 'dfy.generateSenderIdentities',
  kind: 'mutation',
  summary: 'Generate sender identities',
  description: [
    `Builds the ${SENDER_PREFIX_TOTAL} mailbox usernames (the part before @, not full addresses) that an enterprise DFY order (\`PROVIDERB_ENTERPRISE\`) needs, from 1 to ${MAX_SENDER_PROFILES} real sender profiles; fewer or more is a 400 on \`profiles\`. The answer has the shape of the order's \`senders\` field: one sender per profile, in input order, with first_name and last_name echoed as given (trimmed). Nothing is stored.`,
    `Spread: with n profiles each gets floor(${SENDER_PREFIX_TOTAL}/n) prefixes and the first ${SENDER_PREFIX_TOTAL} mod n profiles one more, so there are exactly ${SENDER_PREFIX_TOTAL} in total, none repeated anywhere in the answer. Deterministic: the same profiles always give the same answer.`,
    'Names are normalised to lowercase ASCII: diacritics folded (NFKD, combining marks removed; ß→ss, æ→ae, ø→o, ł→l, đ/ð→d, þ→th, œ→oe, ı→i), then every character outside [a-z0-9] dropped, each part cut to 30 characters. A first or last name with nothing left is a 400 naming the field (`profiles.2.last_name has no letters usable in a mailbox name`); a middle name with nothing left (or empty, or null) is treated as absent.',
    `Patterns per profile, in order (f first, l last, fi/li their initials, m middle, mi its initial): ${shown(BASE_PATTERNS)}; then ${shown(FURTHER_PATTERNS)}; then, with a middle name, ${shown(MIDDLE_PATTERNS)}; then, while the profile needs more, the first six with a numeric suffix (\`f.l2\`, \`fl2\`, … \`l.f2\`, \`f.l3\`, …). A candidate already taken by this or an earlier profile is skipped, as is one that is not a valid local part (1–64 characters of [a-z0-9] joined by single \`.\`, \`_\` or \`-\`).`,
  ].join('\n\n'),
  input: GenerateSenderIdentitiesInput,
  output: GenerateSenderIdentitiesOutput,
  workspace: 'required',
  async run(_ctx, input) {
    return buildSenderIdentities({ profiles: input.profiles });
  },
});
