import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestTenant, useTestDatabase } from '../testing/index';
import { startDnsServer, type DnsTestServer } from '../testing/dns-server';
import { createDnsResolver, type DnsResolver } from '../shared/dns';
import { executeOperation } from '../shared/operation';
import { DomainError } from '../shared/errors';
import { operations } from '../operations';
import { MAX_LOOKUPS_IN_FLIGHT } from './vitals.service';

// A real 2048-bit RSA key, as a DKIM record publishes it: 392 base64 characters, more
// than one 255-octet character-string.
const DKIM_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const DKIM_RECORD = `v=DKIM1; k=rsa; p=${DKIM_KEY}`;
// A 4096-bit-sized key: its answer outgrows 512 octets, so node:dns retries over TCP.
const BIG_DKIM_RECORD = `v=DKIM1; k=rsa; p=${randomBytes(550).toString('base64')}`;
const MX = [{ exchange: 'mx.example.net', priority: 10 }];

const RECORDS = {
  'full.test': { txt: ['google-site-verification=abc', 'v=spf1 include:_spf.google.com ~all'], mx: MX },
  '_dmarc.full.test': { txt: ['v=DMARC1; p=quarantine; rua=mailto:dmarc@full.test'] },
  'google._domainkey.full.test': { txt: [DKIM_RECORD] },

  'spf-only.test': { txt: ['v=spf1 -all'] },

  'custom.test': { txt: ['v=spf1 -all'], mx: MX },
  '_dmarc.custom.test': { txt: ['v=DMARC1; p=reject'] },
  'custom1._domainkey.custom.test': { txt: [DKIM_RECORD] },

  'long-key.test': { txt: ['v=spf1 -all'], mx: MX },
  '_dmarc.long-key.test': { txt: ['v=DMARC1; p=none'] },
  // Revoked at one selector, present at another.
  'google._domainkey.long-key.test': { txt: ['v=DKIM1; k=rsa; p='] },
  'selector1._domainkey.long-key.test': { txt: [DKIM_RECORD] },

  'big-key.test': { txt: ['v=spf1 -all'], mx: MX },
  '_dmarc.big-key.test': { txt: ['v=DMARC1; p=reject'] },
  's2._domainkey.big-key.test': { txt: [BIG_DKIM_RECORD] },

  'servfail.test': { servfail: true },
  'slow.test': { timeout: true },
};

const db = useTestDatabase();
let dns: DnsTestServer;
let resolver: DnsResolver;

beforeAll(async () => {
  dns = await startDnsServer({ records: RECORDS });
  resolver = createDnsResolver({ servers: [dns.address], timeoutMs: 300 });
});
afterAll(() => dns?.close());
afterEach(() => {
  // A handler that throws drops the query silently on the wire; surface it here.
  expect(dns.errors).toEqual([]);
});

async function setup(options: { dns?: DnsResolver } = {}) {
  const { org, ctx } = await createTestTenant({ db, dns: options.dns ?? resolver });
  const check = (accounts: unknown) => executeOperation({ op: operations.account.testVitals, ctx, input: { workspace_id: org.workspaceId, accounts } });
  return { org, ctx, check };
}

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** Queries the server receives while `fn` runs. */
async function queriesDuring(fn: () => Promise<unknown>) {
  const before = dns.queries.length;
  await fn();
  return dns.queries.slice(before);
}

describe('loopback DNS server', () => {
  it('splits a long TXT value into 255-octet strings that node:dns hands back in order', async () => {
    const records = await resolver.resolveTxt('selector1._domainkey.long-key.test');
    expect(records).toHaveLength(1);
    const chunks = records[0] ?? [];
    expect(chunks.map((c) => c.length)).toEqual([255, DKIM_RECORD.length - 255]);
    expect(chunks.join('')).toBe(DKIM_RECORD);
  });

  it('answers over TCP when the UDP answer is truncated, several queries at once', async () => {
    const name = 's2._domainkey.big-key.test';
    const queries = await queriesDuring(async () => {
      const answers = await Promise.all([1, 2, 3].map(() => resolver.resolveTxt(name)));
      for (const records of answers) {
        expect(records.map((chunks) => chunks.length)).toEqual([3]);
        expect(records[0]?.join('')).toBe(BIG_DKIM_RECORD);
      }
    });
    expect(queries.map((q) => q.transport).sort()).toEqual(['tcp', 'tcp', 'tcp', 'udp', 'udp', 'udp']);
  });

  it('answers NXDOMAIN, NODATA and SERVFAIL as node:dns expects', async () => {
    const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code: string }) => e.code);
    expect(await code(resolver.resolveTxt('nowhere.test'))).toBe('ENOTFOUND');
    expect(await code(resolver.resolveMx('spf-only.test'))).toBe('ENODATA');
    expect(await code(resolver.resolveTxt('servfail.test'))).toBe('ESERVFAIL');
    // Node 24 adds `type: 'MX'` to each record; the port promises exchange and priority.
    expect((await resolver.resolveMx('full.test')).map(({ exchange, priority }) => ({ exchange, priority }))).toEqual(MX);
  });
});

describe('account.testVitals', () => {
  it('reports each check of each domain, in order of first appearance', async () => {
    const { check } = await setup();
    const result = await check(['ceo@full.test', 'spf-only.test', 'info@custom.test']);
    expect(result).toEqual({
      status: 'success',
      success_list: [
        { domain: 'full.test', allPass: true, spf: true, dkim: true, dmarc: true, mx: true },
        { domain: 'spf-only.test', allPass: false, spf: true, dkim: false, dmarc: false, mx: false },
        // custom1 is not a common selector, and this workspace does not configure it.
        { domain: 'custom.test', allPass: false, spf: true, dkim: false, dmarc: true, mx: true },
      ],
      failure_list: [],
    });
  });

  it("finds DKIM at a selector the workspace configures in settings.dkim_selectors", async () => {
    const { org, check } = await setup();
    await db.prisma.workspace.update({ where: { id: org.workspaceId }, data: { settings: { dkim_selectors: ['custom1'] } } });
    const queries = await queriesDuring(async () => {
      const result = await check(['custom.test']);
      expect(result.success_list).toEqual([{ domain: 'custom.test', allPass: true, spf: true, dkim: true, dmarc: true, mx: true }]);
    });
    expect(queries.some((q) => q.name === 'custom1._domainkey.custom.test')).toBe(true);
    // Malformed settings are ignored rather than failing the check.
    await db.prisma.workspace.update({ where: { id: org.workspaceId }, data: { settings: { dkim_selectors: 'custom1' } } });
    expect((await check(['custom.test'])).success_list[0]?.dkim).toBe(false);
  });

  it('reads a long DKIM key split over several strings, past a revoked key at another selector', async () => {
    const { check } = await setup();
    const result = await check(['long-key.test', 'big-key.test']);
    expect(result.success_list).toEqual([
      { domain: 'long-key.test', allPass: true, spf: true, dkim: true, dmarc: true, mx: true },
      { domain: 'big-key.test', allPass: true, spf: true, dkim: true, dmarc: true, mx: true },
    ]);
  });

  it('lists domains that cannot be checked in failure_list, with why', async () => {
    const { check } = await setup();
    const result = await check(['a@nowhere.test', 'servfail.test', 'b@slow.test', 'full.test']);
    expect(result.failure_list).toEqual([
      { domain: 'nowhere.test', error: 'domain does not exist' },
      { domain: 'servfail.test', error: 'DNS server failure' },
      { domain: 'slow.test', error: 'DNS lookup timed out' },
    ]);
    expect(result.success_list.map((s) => s.domain)).toEqual(['full.test']);
  });

  it('checks each domain once however many addresses share it', async () => {
    const { check } = await setup();
    const queries = await queriesDuring(async () => {
      const result = await check(['a@full.test', 'B@FULL.TEST', ' full.test. ', 'c@spf-only.test', 'd@full.test']);
      expect(result.success_list.map((s) => s.domain)).toEqual(['full.test', 'spf-only.test']);
    });
    const asked = (name: string, type: string) => queries.filter((q) => q.name === name && q.type === type && q.transport === 'udp').length;
    expect(asked('full.test', 'TXT')).toBe(1);
    expect(asked('full.test', 'MX')).toBe(1);
    expect(asked('_dmarc.full.test', 'TXT')).toBe(1);
    expect(asked('google._domainkey.full.test', 'TXT')).toBe(1);
    expect(asked('spf-only.test', 'TXT')).toBe(1);
  });

  it('asks nothing more about a domain that does not exist', async () => {
    const { check } = await setup();
    const queries = await queriesDuring(() => check(['gone.test']));
    expect(queries.map((q) => `${q.type} ${q.name}`).sort()).toEqual(['MX gone.test', 'TXT gone.test']);
  });

  it('rejects more than 500 accounts, naming accounts, before any lookup', async () => {
    const { check } = await setup();
    const accounts = Array.from({ length: 501 }, (_, i) => `user${i}@full.test`);
    const queries = await queriesDuring(async () => {
      const error = await rejection(check(accounts));
      expect(error.kind).toBe('invalid');
      expect(error.fieldErrors).toEqual([{ field: 'accounts', message: 'must contain at most 500 accounts per request' }]);
    });
    expect(queries).toEqual([]);
    const empty = await rejection(check([]));
    expect(empty.fieldErrors.map((f) => f.field)).toEqual(['accounts']);
    const missing = await rejection(check(undefined));
    expect(missing.fieldErrors).toEqual([{ field: 'accounts', message: 'is required' }]);
  });

  it('rejects an entry that is neither an address nor a domain, naming its index', async () => {
    const { check } = await setup();
    const error = await rejection(check(['ok@full.test', 'full.test', 'not a domain', 'x@']));
    expect(error.kind).toBe('invalid');
    expect(error.fieldErrors).toEqual([
      { field: 'accounts.2', message: 'must be an e-mail address or a domain name' },
      { field: 'accounts.3', message: 'must be an e-mail address or a domain name' },
    ]);
    const wrongType = await rejection(check(['full.test', 42]));
    // The message is not asserted: shared/errors.ts reports every invalid_type as "is required".
    expect(wrongType.fieldErrors.map((f) => f.field)).toEqual(['accounts.1']);
  });

  it('abandons a lookup the resolver never settles, at twice its timeout', async () => {
    const hung: DnsResolver & { timeoutMs: number } = {
      timeoutMs: 50,
      resolveTxt: () => new Promise(() => undefined),
      resolveMx: () => new Promise(() => undefined),
    };
    const { check } = await setup({ dns: hung });
    const started = performance.now();
    const result = await check(['hung.test']);
    expect(result.failure_list).toEqual([{ domain: 'hung.test', error: 'DNS lookup timed out' }]);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(95);
    expect(elapsed).toBeLessThan(5_000);
  });
});

describe('account.testVitals concurrency', () => {
  let slow: DnsTestServer;
  const DOMAINS = Array.from({ length: 40 }, (_, i) => `d${i}.test`);

  beforeAll(async () => {
    // Every name answers after 40 ms, so lookups overlap if and only if they are sent together.
    const records: Record<string, { txt?: string[]; delayMs: number }> = {};
    for (const domain of DOMAINS) {
      records[domain] = { txt: ['v=spf1 -all'], delayMs: 40 };
      records[`_dmarc.${domain}`] = { txt: ['v=DMARC1; p=none'], delayMs: 40 };
    }
    slow = await startDnsServer({ records });
  });
  afterAll(() => slow?.close());

  it(`keeps at most ${MAX_LOOKUPS_IN_FLIGHT} lookups in flight, and more than one`, async () => {
    const { check } = await setup({ dns: createDnsResolver({ servers: [slow.address], timeoutMs: 2_000 }) });
    const result = await check(DOMAINS);
    expect(result.success_list).toHaveLength(DOMAINS.length);
    expect(result.success_list.every((s) => s.spf && s.dmarc && !s.dkim && !s.mx)).toBe(true);
    expect(slow.peakInFlight).toBe(MAX_LOOKUPS_IN_FLIGHT);
  });
});
