import { describe, expect, it } from 'vitest';
import { classifyOpen, MACHINE_OPEN_MIN_DELAY_MS, MACHINE_USER_AGENT_PATTERNS, machineUserAgentPattern } from './open.rules';

const sentAt = new Date('2026-03-02T09:00:00.000Z');
const after = (ms: number) => new Date(sentAt.getTime() + ms);
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const OUTLOOK = 'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17531; Pro)';
const APPLE_MAIL = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)';
const GMAIL_PROXY = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

describe('classifyOpen', () => {
  it('counts a mail client an hour after the send as a human open', () => {
    for (const userAgent of [CHROME, OUTLOOK, APPLE_MAIL]) {
      expect(classifyOpen({ sentAt, openedAt: after(3_600_000), userAgent })).toEqual({ machine: false, reason: null });
    }
  });

  it('marks an open less than 10 seconds after the send as too soon, whatever the user agent', () => {
    expect(MACHINE_OPEN_MIN_DELAY_MS).toBe(10_000);
    expect(classifyOpen({ sentAt, openedAt: sentAt, userAgent: CHROME })).toEqual({ machine: true, reason: 'too_soon' });
    expect(classifyOpen({ sentAt, openedAt: after(9_999), userAgent: CHROME })).toEqual({ machine: true, reason: 'too_soon' });
    expect(classifyOpen({ sentAt, openedAt: after(9_999), userAgent: GMAIL_PROXY })).toEqual({ machine: true, reason: 'too_soon' });
    // An open dated before the send (clock skew between machines) is no human either.
    expect(classifyOpen({ sentAt, openedAt: after(-5_000), userAgent: CHROME })).toEqual({ machine: true, reason: 'too_soon' });
    // Exactly 10 seconds is late enough.
    expect(classifyOpen({ sentAt, openedAt: after(10_000), userAgent: CHROME })).toEqual({ machine: false, reason: null });
  });

  it('marks a missing or blank user agent as a machine', () => {
    for (const userAgent of [undefined, null, '', '   ']) {
      expect(classifyOpen({ sentAt, openedAt: after(60_000), userAgent })).toEqual({ machine: true, reason: 'no_user_agent' });
    }
  });

  it('marks image proxies, mail scanners, bots and HTTP libraries as machines, case-insensitively', () => {
    const machines = [
      GMAIL_PROXY,
      'Mozilla/5.0 (via ggpht.com)',
      'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html',
      'Barracuda Sentinel (EE)',
      'Mimecast URL Protect',
      'Proofpoint-URL-Defense/1.0',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0)',
      'SomeCRAWLER/1.0',
      'Baiduspider',
      'curl/8.5.0',
      'python-requests/2.31.0',
      'Python-urllib/3.12',
      'Go-http-client/1.1',
      'Wget/1.21.4',
      'libwww-perl/6.72',
      'Apache-HttpClient/4.5.14 (Java/17)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36',
      'googleimageproxy',
      'YAHOOMAILPROXY',
    ];
    for (const userAgent of machines) {
      expect(classifyOpen({ sentAt, openedAt: after(60_000), userAgent }), userAgent).toEqual({ machine: true, reason: 'proxy' });
    }
  });

  it('names the pattern that matched, and lists at least the documented ones', () => {
    expect(machineUserAgentPattern(GMAIL_PROXY)).toBe('GoogleImageProxy');
    expect(machineUserAgentPattern('curl/8.5.0')).toBe('curl/');
    expect(machineUserAgentPattern(CHROME)).toBeNull();
    // "curl" without the slash is not enough (no false positive on words containing it).
    expect(machineUserAgentPattern('Mozilla/5.0 CurlyMail/1.0')).toBeNull();
    for (const p of ['GoogleImageProxy', 'ggpht.com', 'YahooMailProxy', 'Barracuda', 'Mimecast', 'Proofpoint', 'bot', 'crawler', 'spider', 'curl/', 'python-requests', 'Go-http-client', 'wget']) {
      expect(MACHINE_USER_AGENT_PATTERNS).toContain(p);
    }
  });
});
