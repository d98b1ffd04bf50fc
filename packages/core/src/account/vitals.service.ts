import type { DnsResolver } from '../shared/dns';
import type { DomainVitals, DomainVitalsFailure } from './vitals.schemas';
import { bareDomainFailure, evaluateVitals, type Lookup, type MxRecord } from './vitals.rules';

/** Lookups of one request in flight at once: enough to be quick, few enough not to flood a resolver. */
export const MAX_LOOKUPS_IN_FLIGHT = 16;

/** createDnsResolver's default, for a resolver that does not declare its own. */
const DEFAULT_RESOLVER_TIMEOUT_MS = 3_000;

/** Runs tasks with at most `maxInFlight` of them pending at once, the others queued in order. */
export function createLimiter(maxInFlight: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A finishing task hands its slot straight to the next waiter, so `active` never
    // drops and rises again between them and no newcomer can jump the queue.
    if (active < maxInFlight) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}

/**
 * Rejects with an ETIMEOUT error after `ms` when `promise` has not settled: a
 * resolver that never answers must not hold a request (or a limiter slot) forever.
 */
export function withDeadline<T>(options: { promise: Promise<T>; ms: number }): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`DNS lookup exceeded ${options.ms} ms`), { code: 'ETIMEOUT' })), options.ms);
  });
  return Promise.race([options.promise, deadline]).finally(() => clearTimeout(timer));
}

function dnsErrorCode(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

/**
 * Checks each domain (distinct, in order) against DNS: TXT and MX on the domain
 * first, then, unless that failed, DMARC and every DKIM selector. All lookups of all
 * domains share one limiter, so domains are checked side by side, never one by one.
 */
export async function lookupDomainVitals(options: {
  dns: DnsResolver;
  domains: string[];
  selectors: string[];
}): Promise<{ success_list: DomainVitals[]; failure_list: DomainVitalsFailure[] }> {
  const { dns, selectors } = options;
  // The resolver bounds each try itself; this only catches a lookup that never settles.
  const deadlineMs = 2 * (dns.timeoutMs ?? DEFAULT_RESOLVER_TIMEOUT_MS);
  const limit = createLimiter(MAX_LOOKUPS_IN_FLIGHT);

  const lookup = <T>(query: () => Promise<T>): Promise<Lookup<T>> =>
    limit(async () => {
      try {
        return { ok: true, records: await withDeadline({ promise: query(), ms: deadlineMs }) };
      } catch (error) {
        const code = dnsErrorCode(error);
        // Not a DNS answer at all (a bug in a resolver): let the request fail as a 500.
        if (code === null) throw error;
        return { ok: false, code };
      }
    });
  const txt = (name: string) => lookup(() => dns.resolveTxt(name));
  const mx = (name: string) => lookup<MxRecord[]>(() => dns.resolveMx(name));

  const results = await Promise.all(
    [...new Set(options.domains)].map(async (domain) => {
      const [txtLookup, mxLookup] = await Promise.all([txt(domain), mx(domain)]);
      const failure = bareDomainFailure({ txt: txtLookup, mx: mxLookup });
      // A domain that does not exist or whose server fails would only fail the rest too.
      if (failure) return { domain, ok: false as const, error: failure };
      const [dmarcLookup, dkimLookups] = await Promise.all([
        txt(`_dmarc.${domain}`),
        Promise.all(selectors.map((selector) => txt(`${selector}._domainkey.${domain}`))),
      ]);
      const outcome = evaluateVitals({ txt: txtLookup, mx: mxLookup, dmarc: dmarcLookup, dkim: dkimLookups });
      return outcome.ok ? { domain, ok: true as const, verdict: outcome.verdict } : { domain, ok: false as const, error: outcome.error };
    }),
  );

  const success_list: DomainVitals[] = [];
  const failure_list: DomainVitalsFailure[] = [];
  for (const result of results) {
    if (result.ok) success_list.push({ domain: result.domain, ...result.verdict });
    else failure_list.push({ domain: result.domain, error: result.error });
  }
  return { success_list, failure_list };
}
