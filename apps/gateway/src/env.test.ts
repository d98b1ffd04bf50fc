// Settings are checked once at start: each problem is one line naming the variable and what is wrong.
import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env';

function problemsOf(source: Record<string, string>): string[] {
  try {
    loadEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as EnvError).problems;
  }
  throw new Error('loadEnv accepted the settings');
}

describe('loadEnv', () => {
  it('accepts ports 0 to 65535 and treats an empty PORT as unset; refuses others naming PORT and its value', () => {
    expect(loadEnv({ PORT: '65535' }).PORT).toBe(65_535);
    expect(loadEnv({ PORT: '0' }).PORT).toBe(0);
    expect(loadEnv({ PORT: '' }).PORT).toBe(3000);
    expect(problemsOf({ PORT: '70000' })).toEqual(['invalid setting PORT="70000": must be at most 65535']);
    expect(problemsOf({ PORT: '-1' })).toEqual(['invalid setting PORT="-1": must be at least 0']);
    expect(problemsOf({ PORT: 'http' })).toEqual(['invalid setting PORT="http": must be a whole number']);
  });

  it('wants PUBLIC_URL as an http(s) URL with a host', () => {
    expect(loadEnv({ PUBLIC_URL: 'https://outreach.example.com/' }).PUBLIC_URL).toBe('https://outreach.example.com/');
    expect(loadEnv({ PUBLIC_URL: 'http://10.0.0.5:3000' }).PUBLIC_URL).toBe('http://10.0.0.5:3000');
    expect(loadEnv({ PUBLIC_URL: '' }).PUBLIC_URL).toBeUndefined();
    const why = 'must be an http:// or https:// URL with a host, e.g. https://outreach.example.com';
    expect(problemsOf({ PUBLIC_URL: 'localhost:3000' })).toEqual([`invalid setting PUBLIC_URL="localhost:3000": ${why}`]);
    expect(problemsOf({ PUBLIC_URL: 'ftp://example.com' })).toEqual([`invalid setting PUBLIC_URL="ftp://example.com": ${why}`]);
    expect(problemsOf({ PUBLIC_URL: 'https://' })).toEqual([`invalid setting PUBLIC_URL="https://": ${why}`]);
    expect(problemsOf({ PUBLIC_URL: 'outreach.example.com' })).toEqual([`invalid setting PUBLIC_URL="outreach.example.com": ${why}`]);
  });

  it('wants DATABASE_URL to parse as a PostgreSQL URL with a host, and never repeats it (it holds a password)', () => {
    expect(loadEnv({ DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/outreach' }).DATABASE_URL).toBe('postgres://app:s3cret@db.internal:5432/outreach');
    expect(loadEnv({ DATABASE_URL: 'postgresql:///outreach?host=/var/run/postgresql' }).DATABASE_URL).toBeDefined();
    expect(loadEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
    const shape = '(postgres://user:password@host:5432/database)';
    const cases: [string, string][] = [
      ['postgres://app:s3cret@host:notaport/db', 'is not a valid URL; check the host, the port (a number) and that special characters in the password are percent-encoded'],
      ['postgres://app:s3cret@bad host/db', 'is not a valid URL; check the host, the port (a number) and that special characters in the password are percent-encoded'],
      ['postgres://', 'names no host'],
      ['mysql://app:s3cret@host/db', 'must be a postgres:// or postgresql:// URL'],
    ];
    for (const [url, why] of cases) {
      const problems = problemsOf({ DATABASE_URL: url });
      expect(problems, url).toEqual([`invalid setting DATABASE_URL: ${why} ${shape}`]);
      expect(problems[0]).not.toContain('s3cret');
    }
  });

  it('leaves metrics off without METRICS_TOKEN, wants 16 printable characters, and never repeats the token', () => {
    expect(loadEnv({}).METRICS_TOKEN).toBeUndefined();
    expect(loadEnv({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
    expect(loadEnv({ METRICS_TOKEN: 'abcdef0123456789' }).METRICS_TOKEN).toBe('abcdef0123456789');
    expect(loadEnv({}).METRICS_PORT).toBe(9464);
    expect(problemsOf({ METRICS_TOKEN: 'short-secret' })).toEqual(['invalid setting METRICS_TOKEN: must be at least 16 characters (e.g. openssl rand -hex 32)']);
    expect(problemsOf({ METRICS_TOKEN: 'sixteen chars, with spaces' })).toEqual(['invalid setting METRICS_TOKEN: must be printable ASCII without spaces (it travels in an HTTP header)']);
    expect(problemsOf({ METRICS_PORT: '70000' })).toEqual(['invalid setting METRICS_PORT="70000": must be at most 65535']);
  });

  it('reports every problem, one line each', () => {
    const problems = problemsOf({ PORT: '70000', PUBLIC_URL: 'localhost:3000', LOG_LEVEL: 'loud' });
    expect(problems).toHaveLength(3);
    expect(problems.map((p) => p.split(' ')[2]!.split('=')[0])).toEqual(['PORT', 'PUBLIC_URL', 'LOG_LEVEL']);
    for (const p of problems) expect(p).not.toContain('\n');
    let message = '';
    try {
      loadEnv({ PORT: '70000', LOG_LEVEL: 'loud' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual([expect.stringMatching(/^invalid setting PORT=/), expect.stringMatching(/^invalid setting LOG_LEVEL=/)]);
  });
});
