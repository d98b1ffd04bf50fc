import { promises as dns } from 'node:dns';

/** The DNS lookups the domain needs; real DNS in production, a loopback server in tests. */
export interface DnsResolver {
  /** TXT records, each as its character-string chunks. Rejects with a node:dns error code. */
  resolveTxt(hostname: string): Promise<string[][]>;
  resolveMx(hostname: string): Promise<{ exchange: string; priority: number }[]>;
  /** The per-query timeout the resolver was built with, in ms; callers bound their own waits by it. */
  readonly timeoutMs?: number;
}

/**
 * node:dns with its own resolver: `servers` (host or host:port) replace the system's
 * when given; `timeoutMs` bounds each query (one retry).
 */
export function createDnsResolver(options: { servers?: string[]; timeoutMs?: number } = {}): DnsResolver {
  const resolver = new dns.Resolver({ timeout: options.timeoutMs ?? 3_000, tries: 2 });
  if (options.servers?.length) resolver.setServers(options.servers);
  return {
    timeoutMs: options.timeoutMs ?? 3_000,
    resolveTxt: (hostname) => resolver.resolveTxt(hostname),
    resolveMx: (hostname) => resolver.resolveMx(hostname),
  };
}
