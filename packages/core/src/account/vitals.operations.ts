import { defineOperation } from '../shared/operation';
import { DomainVitalsInput, DomainVitalsOutput, MAX_ACCOUNTS_PER_REQUEST } from './vitals.schemas';
import { COMMON_DKIM_SELECTORS, dkimSelectorsFor, MAX_CONFIGURED_DKIM_SELECTORS } from './vitals.rules';
import { lookupDomainVitals, MAX_LOOKUPS_IN_FLIGHT } from './vitals.service';

export const checkDomainVitals = defineOperation({
  name: 'account.testVitals',
  kind: 'mutation',
  summary: 'Check domain vitals (SPF, DKIM, DMARC)',
  description: [
    `Checks the DNS records of the domains behind \`accounts\` (1 to ${MAX_ACCOUNTS_PER_REQUEST} e-mail addresses or bare domains). Each entry is trimmed and lower-cased, a trailing dot is dropped and the domain after the last \`@\` is taken; an entry that is neither an address nor a domain name is a 400 naming \`accounts.<index>\`. Each distinct domain is checked once, and both lists keep the order of first appearance. Nothing is stored.`,
    '',
    '- **spf**: exactly one TXT record at the domain (character-strings joined) starts with `v=spf1` (any case), and its `all` mechanism is not `+all` or a bare `all`; `-all`, `~all`, `?all` or no `all` pass. Two SPF records are an RFC 7208 permerror and fail.',
    '- **dmarc**: exactly one TXT record at `_dmarc.<domain>` starts with the tag `v=DMARC1` and has `p=none`, `quarantine` or `reject` (tags split on `;`, trimmed, compared case-insensitively).',
    `- **dkim**: a TXT record at \`<selector>._domainkey.<domain>\` starting with \`v=DKIM1\` (or naming \`k=rsa\`/\`k=ed25519\`) with a non-empty base64 \`p=\` (an empty \`p=\` is a revoked key), at any of the selectors ${COMMON_DKIM_SELECTORS.join(', ')}, or the workspace's \`settings.dkim_selectors\` (at most ${MAX_CONFIGURED_DKIM_SELECTORS}).`,
    '- **mx**: the domain has at least one MX record. Reported only: `allPass` is `spf && dkim && dmarc`.',
    '',
    'A domain lands in `failure_list` as `{ domain, error }` instead of `success_list` when it cannot be checked: `domain does not exist` when the TXT and the MX lookups on the domain both answer NXDOMAIN; `DNS server failure` (SERVFAIL), `DNS lookup timed out`, `DNS query refused`, `DNS server unreachable`, ... when a lookup deciding a check fails. A name without records of the asked type (NODATA, or NXDOMAIN on `_dmarc.` / `._domainkey.` names) is no failure: that check is false. A failed lookup at one DKIM selector fails the domain only when no other selector holds a key.',
    '',
    `Lookups run concurrently, at most ${MAX_LOOKUPS_IN_FLIGHT} in flight per request, each bounded by the resolver timeout (DNS_TIMEOUT_MS) and abandoned at twice that.`,
  ].join('\n'),
  input: DomainVitalsInput,
  output: DomainVitalsOutput,
  workspace: 'required',
  async run(ctx, input) {
    const workspace = await ctx.db.workspace.findFirst({
      where: { id: input.workspace_id, organizationId: ctx.actor.organizationId },
      select: { settings: true },
    });
    const selectors = dkimSelectorsFor(workspace?.settings);
    const domains = [...new Set(input.accounts)];
    const result = await lookupDomainVitals({ dns: ctx.ports.dns, domains, selectors });
    ctx.log.debug(
      { domains: domains.length, passed: result.success_list.length, failed: result.failure_list.length },
      'domain vitals checked',
    );
    return { status: 'success' as const, ...result };
  },
});
