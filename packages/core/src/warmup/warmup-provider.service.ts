import type { DnsResolver } from '../shared/dns';
import { providerOfMx, type MailProvider } from './warmup-pool.rules';

/** The provider of a recipient domain from its MX records (the DNS port); OTHER when the lookup fails. */
export async function recipientProvider(options: { dns: DnsResolver; domain: string }): Promise<MailProvider> {
  try {
    const records = await options.dns.resolveMx(options.domain);
    return providerOfMx(records.map((r) => r.exchange));
  } catch {
    return 'OTHER';
  }
}
