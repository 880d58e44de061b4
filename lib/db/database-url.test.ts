import { parse as pgParse } from 'pg-connection-string';
import { describe, expect, it } from 'vitest';
import { hostName, needsPrimaryLocator, parseDatabaseUrl, singleHostUrl } from './database-url';

const PASSWORD = 's3cr%40t:pw';

function refusal(url: string): string {
  try {
    parseDatabaseUrl(url);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('DATABASE_URL in libpq multi-host form', () => {
  it('reads every host with its port, IPv6 in brackets, and 5432 where none is given', () => {
    const url = parseDatabaseUrl('postgres://app:pw@db-a:5432,[::1]:5433,db-c/payments?target_session_attrs=read-write');
    expect(url.hosts).toEqual([
      { host: 'db-a', port: 5432 },
      { host: '::1', port: 5433 },
      { host: 'db-c', port: 5432 },
    ]);
    expect(url.targetSessionAttrs).toBe('read-write');
    expect(url.hosts.map(hostName)).toEqual(['db-a:5432', '[::1]:5433', 'db-c:5432']);
  });

  it('hands each host to node-postgres with the same percent-encoded credentials, database and other parameters', () => {
    const url = parseDatabaseUrl(`postgresql://pay%20user:${PASSWORD}@h1:6000,[::1]/pay%2Ddb?sslmode=disable&target_session_attrs=primary&application_name=web`);
    expect(url.targetSessionAttrs).toBe('primary');
    const second = singleHostUrl(url, url.hosts[1]!);
    expect(second).toBe(`postgresql://pay%20user:${PASSWORD}@[::1]:5432/pay%2Ddb?sslmode=disable&application_name=web`);
    const config = pgParse(singleHostUrl(url, url.hosts[0]!));
    expect(config).toMatchObject({ user: 'pay user', password: 's3cr@t:pw', host: 'h1', port: '6000', database: 'pay-db', application_name: 'web' });
  });

  it('defaults several hosts to read-write and one host to any', () => {
    expect(parseDatabaseUrl('postgres://u@a,b/db').targetSessionAttrs).toBe('read-write');
    expect(parseDatabaseUrl('postgres://u@a/db').targetSessionAttrs).toBe('any');
  });

  it('needs the locator only for several hosts or a target_session_attrs: a plain URL keeps its way', () => {
    expect(needsPrimaryLocator('postgres://u:p@a:1,b:2/db')).toBe(true);
    expect(needsPrimaryLocator('postgres://u:p@a/db?target_session_attrs=read-write')).toBe(true);
    expect(needsPrimaryLocator('postgres://u:p,w@a/db')).toBe(false); // a comma in the password is not a host list
    expect(needsPrimaryLocator('postgres://u:p@localhost:5432/db?sslmode=disable')).toBe(false);
  });

  it('refuses what is wrong naming DATABASE_URL and the part, never echoing the password', () => {
    const cases: Array<[string, RegExp]> = [
      [`mysql://u:${PASSWORD}@a/db`, /^DATABASE_URL: must start with postgres:\/\//],
      [`postgres://u:${PASSWORD}@a:5432,b:99999/db`, /^DATABASE_URL: the port of host 2 of 2 \("99999"\) is not a number from 1 to 65535/],
      [`postgres://u:${PASSWORD}@a,,b/db`, /^DATABASE_URL: host 2 of 3 is empty/],
      [`postgres://u:${PASSWORD}@[::1:5432,b/db`, /IPv6 address with \[ and never closes it/],
      [`postgres://u:${PASSWORD}@a,b/db?target_session_attrs=standby`, /target_session_attrs=standby is not one this service can run on/],
      [`postgres://u:${PASSWORD}@a,b/db?target_session_attrs=any`, /any with several hosts would send writes/],
      [`postgres://u:${PASSWORD}@a,b/db?host=c`, /not as \?host=/],
      ['postgres://u:bad%zzsecret@a,b/db', /^DATABASE_URL: the password has a malformed percent-encoding$/],
    ];
    for (const [url, expected] of cases) {
      const message = refusal(url);
      expect(message).toMatch(expected);
      expect(message).not.toContain('s3cr');
      expect(message).not.toContain('secret');
    }
  });
});
