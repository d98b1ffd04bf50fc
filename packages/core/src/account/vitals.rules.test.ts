import { describe, expect, it } from 'vitest';
import {
  bareDomainFailure,
  COMMON_DKIM_SELECTORS,
  dkimPasses,
  dkimRecordPasses,
  dkimSelectorsFor,
  dmarcPasses,
  domainOfAccountEntry,
  evaluateVitals,
  lookupErrorMessage,
  MAX_CONFIGURED_DKIM_SELECTORS,
  normaliseDomain,
  spfPasses,
  type Lookup,
} from './vitals.rules';

/** TXT records as node:dns gives them: each one a list of character-strings. */
const txt = (...records: string[]): string[][] => records.map((r) => [r]);
const KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu5+lD3nBlY1iq0==';

describe('spfPasses', () => {
  it('passes one SPF record ending in -all, ~all or ?all, or without all', () => {
    expect(spfPasses(txt('v=spf1 include:_spf.google.com -all'))).toBe(true);
    expect(spfPasses(txt('v=spf1 include:_spf.google.com ~all'))).toBe(true);
    expect(spfPasses(txt('v=spf1 ip4:192.0.2.1 ?all'))).toBe(true);
    expect(spfPasses(txt('v=spf1 mx'))).toBe(true);
  });

  it('fails +all and a bare all, which let anyone send as the domain', () => {
    expect(spfPasses(txt('v=spf1 include:x.example +all'))).toBe(false);
    expect(spfPasses(txt('v=spf1 include:x.example all'))).toBe(false);
    expect(spfPasses(txt('v=spf1 +ALL'))).toBe(false);
    // Terms after `all` are never evaluated: +all anywhere decides.
    expect(spfPasses(txt('v=spf1 +all -all'))).toBe(false);
  });

  it('fails two SPF records (permerror) and no SPF record', () => {
    expect(spfPasses(txt('v=spf1 -all', 'v=spf1 include:x.example ~all'))).toBe(false);
    expect(spfPasses([])).toBe(false);
    expect(spfPasses(txt('google-site-verification=abc'))).toBe(false);
  });

  it('ignores TXT records that are not SPF, and near-misses like v=spf10', () => {
    expect(spfPasses(txt('google-site-verification=abc', 'v=spf1 -all', 'MS=ms123'))).toBe(true);
    expect(spfPasses(txt('v=spf10 -all'))).toBe(false);
    expect(spfPasses(txt('v=spf10 +all', 'v=spf1 -all'))).toBe(true);
  });

  it('is case-insensitive and reads a record split over several strings as one', () => {
    expect(spfPasses(txt('V=SPF1 MX -ALL'))).toBe(true);
    expect(spfPasses([['v=spf1 include:a.example ', 'include:b.example -all']])).toBe(true);
    expect(spfPasses([['v=spf1 include:a.example', ' +all']])).toBe(false);
  });
});

describe('dmarcPasses', () => {
  it('passes p=none, p=quarantine and p=reject', () => {
    expect(dmarcPasses(txt('v=DMARC1; p=none; rua=mailto:d@example.com'))).toBe(true);
    expect(dmarcPasses(txt('v=DMARC1; p=quarantine'))).toBe(true);
    expect(dmarcPasses(txt('v=DMARC1;p=reject;pct=100'))).toBe(true);
    expect(dmarcPasses(txt('v=dmarc1 ; P = Reject ;'))).toBe(true);
  });

  it('fails a missing or unknown policy', () => {
    expect(dmarcPasses(txt('v=DMARC1; rua=mailto:d@example.com'))).toBe(false);
    expect(dmarcPasses(txt('v=DMARC1; p=bogus'))).toBe(false);
    expect(dmarcPasses(txt('v=DMARC1; p='))).toBe(false);
    // sp= is the subdomain policy, not p=.
    expect(dmarcPasses(txt('v=DMARC1; sp=reject'))).toBe(false);
  });

  it('requires v=DMARC1 as the first tag', () => {
    expect(dmarcPasses(txt('p=reject'))).toBe(false);
    expect(dmarcPasses(txt('p=reject; v=DMARC1'))).toBe(false);
    expect(dmarcPasses(txt('v=DMARC2; p=reject'))).toBe(false);
    expect(dmarcPasses([])).toBe(false);
  });

  it('fails two DMARC records, which void the policy', () => {
    expect(dmarcPasses(txt('v=DMARC1; p=reject', 'v=DMARC1; p=none'))).toBe(false);
    expect(dmarcPasses(txt('unrelated', 'v=DMARC1; p=none'))).toBe(true);
  });
});

describe('dkimRecordPasses / dkimPasses', () => {
  it('passes a v=DKIM1 record with a key, or an unversioned one naming its key type', () => {
    expect(dkimRecordPasses(txt(`v=DKIM1; k=rsa; p=${KEY}`))).toBe(true);
    expect(dkimRecordPasses(txt(`v=DKIM1; p=${KEY}`))).toBe(true);
    expect(dkimRecordPasses(txt(`k=rsa; p=${KEY}`))).toBe(true);
    expect(dkimRecordPasses(txt('k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='))).toBe(true);
  });

  it('fails a revoked key (empty p=), a missing p= and a record that is not DKIM', () => {
    expect(dkimRecordPasses(txt('v=DKIM1; k=rsa; p='))).toBe(false);
    expect(dkimRecordPasses(txt('v=DKIM1; k=rsa; p=  '))).toBe(false);
    expect(dkimRecordPasses(txt('v=DKIM1; k=rsa'))).toBe(false);
    expect(dkimRecordPasses(txt(`p=${KEY}`))).toBe(false);
    // v= must come first (RFC 6376 §3.6.1); without it, only a key type makes it DKIM.
    expect(dkimRecordPasses(txt(`h=sha256; v=DKIM1; p=${KEY}`))).toBe(false);
    expect(dkimRecordPasses(txt('v=DKIM1; p=not base64!'))).toBe(false);
    expect(dkimRecordPasses([])).toBe(false);
  });

  it('reads a long key split over several strings, and folded whitespace inside it', () => {
    const long = `v=DKIM1; k=rsa; p=${'A'.repeat(392)}`;
    expect(dkimRecordPasses([[long.slice(0, 255), long.slice(255)]])).toBe(true);
    expect(dkimRecordPasses(txt(`v=DKIM1; p=MIIB IjAN\tBgkq`))).toBe(true);
  });

  it('passes when any selector holds a key', () => {
    expect(dkimPasses([[], txt('v=DKIM1; p='), txt(`v=DKIM1; p=${KEY}`)])).toBe(true);
    expect(dkimPasses([[], txt('v=DKIM1; p=')])).toBe(false);
    expect(dkimPasses([])).toBe(false);
  });
});

describe('domainOfAccountEntry', () => {
  it('takes the domain after the last @ of an address, lower-cased and trimmed', () => {
    expect(domainOfAccountEntry('  Jane.Doe@Example.COM ')).toBe('example.com');
    expect(domainOfAccountEntry('"a@b"@mail.example.org')).toBe('mail.example.org');
  });

  it('accepts a bare domain, and drops a trailing dot', () => {
    expect(domainOfAccountEntry('Example.com')).toBe('example.com');
    expect(domainOfAccountEntry('example.com.')).toBe('example.com');
    expect(domainOfAccountEntry('sales@example.com.')).toBe('example.com');
    expect(domainOfAccountEntry('xn--bcher-kva.de')).toBe('xn--bcher-kva.de');
  });

  it('puts an internationalised domain in its ASCII form', () => {
    expect(domainOfAccountEntry('info@Bücher.de')).toBe('xn--bcher-kva.de');
  });

  it('rejects entries that are neither an address nor a domain name', () => {
    for (const entry of ['', '   ', 'example', '@example.com', 'jane@', 'jane@example', 'ja ne@example.com', 'example..com', '-example.com', 'example-.com', 'exa_mple.com', '192.168.0.1', 'jane@[192.168.0.1]', `${'a'.repeat(64)}.com`, `${'a'.repeat(65)}@example.com`, 'http://example.com']) {
      expect([entry, domainOfAccountEntry(entry)]).toEqual([entry, null]);
    }
  });

  it('rejects a domain over 253 characters', () => {
    const label = 'a'.repeat(63);
    const long = [label, label, label, label].join('.');
    expect(long.length).toBe(255);
    expect(normaliseDomain(long)).toBeNull();
    expect(normaliseDomain(long.slice(2))).toBe(long.slice(2));
  });
});

describe('dkimSelectorsFor', () => {
  it('is the common selectors when the workspace configures none or something malformed', () => {
    for (const settings of [null, undefined, {}, [], 'x', { dkim_selectors: 'custom1' }, { dkim_selectors: { a: 1 } }]) {
      expect(dkimSelectorsFor(settings)).toEqual([...COMMON_DKIM_SELECTORS]);
    }
  });

  it('adds valid configured selectors after the common ones, normalised and without repeats', () => {
    expect(dkimSelectorsFor({ dkim_selectors: [' Custom1 ', 'google', 'custom1', 'mail.2024', 7, '', 'bad selector', 'a..b'] })).toEqual([
      ...COMMON_DKIM_SELECTORS,
      'custom1',
      'mail.2024',
    ]);
  });

  it('takes at most MAX_CONFIGURED_DKIM_SELECTORS configured selectors', () => {
    const many = Array.from({ length: 50 }, (_, i) => `sel${i}`);
    const selectors = dkimSelectorsFor({ dkim_selectors: many });
    expect(selectors).toHaveLength(COMMON_DKIM_SELECTORS.length + MAX_CONFIGURED_DKIM_SELECTORS);
    expect(selectors.at(-1)).toBe(`sel${MAX_CONFIGURED_DKIM_SELECTORS - 1}`);
  });
});

describe('evaluateVitals', () => {
  const ok = <T>(records: T): Lookup<T> => ({ ok: true, records });
  const fail = (code: string): Lookup<never> => ({ ok: false, code });
  const dkimKey = ok(txt(`v=DKIM1; p=${KEY}`));

  it('reports each check and allPass = spf && dkim && dmarc, whatever mx says', () => {
    expect(
      evaluateVitals({ txt: ok(txt('v=spf1 -all')), mx: fail('ENODATA'), dmarc: ok(txt('v=DMARC1; p=none')), dkim: [fail('ENOTFOUND'), dkimKey] }),
    ).toEqual({ ok: true, verdict: { allPass: true, spf: true, dkim: true, dmarc: true, mx: false } });
    expect(
      evaluateVitals({ txt: fail('ENODATA'), mx: ok([{ exchange: 'mx.example.com', priority: 10 }]), dmarc: fail('ENOTFOUND'), dkim: [fail('ENODATA')] }),
    ).toEqual({ ok: true, verdict: { allPass: false, spf: false, dkim: false, dmarc: false, mx: true } });
  });

  it('says the domain does not exist only when TXT and MX on it both answer NXDOMAIN', () => {
    expect(bareDomainFailure({ txt: fail('ENOTFOUND'), mx: fail('ENOTFOUND') })).toBe('domain does not exist');
    expect(bareDomainFailure({ txt: fail('ENOTFOUND'), mx: fail('ENODATA') })).toBeNull();
    expect(bareDomainFailure({ txt: ok([]), mx: fail('ENOTFOUND') })).toBeNull();
  });

  it('fails the domain on a server failure, timeout or refusal of a deciding lookup', () => {
    const base = { txt: ok(txt('v=spf1 -all')), mx: ok([]), dmarc: ok(txt('v=DMARC1; p=none')), dkim: [dkimKey] };
    expect(evaluateVitals({ ...base, txt: fail('ESERVFAIL') })).toEqual({ ok: false, error: 'DNS server failure' });
    expect(evaluateVitals({ ...base, mx: fail('ETIMEOUT') })).toEqual({ ok: false, error: 'DNS lookup timed out' });
    expect(evaluateVitals({ ...base, dmarc: fail('EREFUSED') })).toEqual({ ok: false, error: 'DNS query refused' });
    // A failed selector matters only when no other selector holds a key.
    expect(evaluateVitals({ ...base, dkim: [fail('ETIMEOUT'), dkimKey] }).ok).toBe(true);
    expect(evaluateVitals({ ...base, dkim: [fail('ETIMEOUT'), fail('ENOTFOUND')] })).toEqual({ ok: false, error: 'DNS lookup timed out' });
  });

  it('names unknown error codes', () => {
    expect(lookupErrorMessage('ECONNREFUSED')).toBe('DNS server unreachable');
    expect(lookupErrorMessage('EWEIRD')).toBe('DNS lookup failed (EWEIRD)');
  });
});
