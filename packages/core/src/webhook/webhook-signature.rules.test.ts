import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER, verifyWebhookSignature } from './webhook-signature.rules';

const secret = 'whsec_test';
const body = '{"webhook_event":"EMAIL_SENT","lead_email":"ann@example.com","subject":"Héllo"}';
const t = 1_750_000_000;
const at = (seconds: number) => new Date(seconds * 1000);

describe('webhook signatures', () => {
  it('names the headers', () => {
    expect([SIGNATURE_HEADER, EVENT_ID_HEADER, EVENT_HEADER, TIMESTAMP_HEADER]).toEqual([
      'X-Outreach-Signature',
      'X-Outreach-Event-Id',
      'X-Outreach-Event',
      'X-Outreach-Timestamp',
    ]);
  });

  it('signs "<timestamp>.<body>" with HMAC-SHA256, hex', () => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(signWebhook({ secret, timestamp: t, body })).toBe(`t=${t},v1=${expected}`);
    // Bytes and the same text sign the same.
    expect(signWebhook({ secret, timestamp: t, body: Buffer.from(body) })).toBe(`t=${t},v1=${expected}`);
    expect(() => signWebhook({ secret, timestamp: 1.5, body })).toThrow();
  });

  it('verifies its own signatures within the tolerance, either way', () => {
    const header = signWebhook({ secret, timestamp: t, body });
    expect(verifyWebhookSignature({ secret, header, body, now: at(t) })).toBe(true);
    expect(verifyWebhookSignature({ secret, header, body: Buffer.from(body), now: at(t + 300) })).toBe(true);
    expect(verifyWebhookSignature({ secret, header, body, now: at(t - 300) })).toBe(true);
    expect(verifyWebhookSignature({ secret, header, body, now: at(t + 301) })).toBe(false);
    expect(verifyWebhookSignature({ secret, header, body, now: at(t - 301) })).toBe(false);
    expect(verifyWebhookSignature({ secret, header, body, now: at(t + 3_000), toleranceSeconds: 3_600 })).toBe(true);
  });

  it('refuses another secret, another body, another timestamp and malformed headers', () => {
    const header = signWebhook({ secret, timestamp: t, body });
    const sig = header.split('v1=')[1]!;
    expect(verifyWebhookSignature({ secret: 'other', header, body, now: at(t) })).toBe(false);
    expect(verifyWebhookSignature({ secret, header, body: `${body} `, now: at(t) })).toBe(false);
    expect(verifyWebhookSignature({ secret, header: `t=${t + 1},v1=${sig}`, body, now: at(t) })).toBe(false);
    for (const bad of [null, undefined, '', 'garbage', `v1=${sig}`, `t=${t}`, `t=${t},v1=${sig.slice(1)}`, `t=abc,v1=${sig}`, `t=${t},v0=${sig}`]) {
      expect(verifyWebhookSignature({ secret, header: bad, body, now: at(t) })).toBe(false);
    }
  });

  it('accepts any one of several v1 entries (secret rotation) and ignores unknown entries and spacing', () => {
    const good = signWebhook({ secret, timestamp: t, body }).split('v1=')[1]!;
    const other = signWebhook({ secret: 'old', timestamp: t, body }).split('v1=')[1]!;
    expect(verifyWebhookSignature({ secret, header: `t=${t}, v1=${other}, v1=${good.toUpperCase()}, v2=zzz`, body, now: at(t) })).toBe(true);
    expect(verifyWebhookSignature({ secret, header: `t=${t},v1=${other}`, body, now: at(t) })).toBe(false);
  });
});
