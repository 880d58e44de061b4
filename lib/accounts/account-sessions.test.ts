import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { accountSessions, accounts, auditLog } from '../db/schema';
import { createAccount } from './accounts';
import { endAccountSessions, endSessionsFromAccountPage, listLiveSessions, openAccountSession, SESSION_IDLE_LIMIT_MS, sessionNetworkOf, touchLiveSession } from './account-sessions';
import { sessionDeviceOf } from './session-device';

let sequence = 0;
const anAccount = () => createAccount(getDb(), { email: `sessions${(sequence += 1)}-${process.pid}-${Date.now()}@example.com`, password: 'a good long password', role: 'merchant' });
const MINUTE = 60_000;

async function opened(accountId: number, clientAddress: string, now: Date, userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/150.0 Safari/537.36') {
  return openAccountSession(getDb(), { accountId, sessionVersion: 0, userAgent, clientAddress, now });
}

const auditOf = (accountId: number) => getDb().select().from(auditLog).where(and(eq(auditLog.subject, `account:${accountId}`), eq(auditLog.action, 'account.sessions_end')));

describe('account sessions', () => {
  it('a session is live while used within the idle limit; last seen moves at most once a minute', async () => {
    const account = await anAccount();
    const start = new Date('2026-12-03T08:00:00Z');
    const id = await opened(account.id, '203.0.113.77', start);
    const token = { accountId: account.id, sessionVersion: 0, sessionId: id };
    const lastSeen = async () => (await getDb().select({ at: accountSessions.lastSeenAt }).from(accountSessions).where(eq(accountSessions.id, id)))[0]!.at;

    expect(await touchLiveSession(getDb(), token, new Date(start.getTime() + 30_000))).toBe(true);
    expect(await lastSeen()).toEqual(start);
    const later = new Date(start.getTime() + 2 * MINUTE);
    expect(await touchLiveSession(getDb(), token, later)).toBe(true);
    expect(await lastSeen()).toEqual(later);
    // Used 7 h 59 min after it was last seen: still live, and the idle limit counts from now on.
    const nearlyIdle = new Date(later.getTime() + SESSION_IDLE_LIMIT_MS - MINUTE);
    expect(await touchLiveSession(getDb(), token, nearlyIdle)).toBe(true);
    expect(await touchLiveSession(getDb(), token, new Date(nearlyIdle.getTime() + SESSION_IDLE_LIMIT_MS + 1))).toBe(false);
    expect(await touchLiveSession(getDb(), { ...token, accountId: account.id + 1 }, nearlyIdle)).toBe(false);

    // Thirty days after its last use, the next sign-in deletes it.
    const monthLater = new Date(nearlyIdle.getTime() + 31 * 24 * 60 * MINUTE);
    const next = await opened(account.id, '203.0.113.77', monthLater);
    const rows = await getDb().select({ id: accountSessions.id }).from(accountSessions).where(eq(accountSessions.accountId, account.id));
    expect(rows.map((row) => row.id)).toEqual([next]);
  });

  it('lists the live sessions of the current version, newest use first, with the network and never the full address', async () => {
    const account = await anAccount();
    const now = new Date('2026-12-03T09:00:00Z');
    const office = await opened(account.id, '203.0.113.77', new Date(now.getTime() - 10 * MINUTE));
    const phone = await opened(account.id, '2001:db8:aa:bb:1234:5678:9abc:def0', new Date(now.getTime() - 5 * MINUTE), 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Version/18.0 Mobile/15E148 Safari/604.1');
    await opened(account.id, '198.51.100.1', new Date(now.getTime() - SESSION_IDLE_LIMIT_MS - MINUTE));
    const listed = await listLiveSessions(getDb(), account.id, now);
    expect(listed.map((session) => [session.id, session.network])).toEqual([
      [phone, '2001:db8:aa:bb::/64'],
      [office, '203.0.113.0/24'],
    ]);
    expect(JSON.stringify(await getDb().select().from(accountSessions).where(eq(accountSessions.accountId, account.id)))).not.toContain('203.0.113.77');

    // A password change moves the version on: none of them is live any more.
    await getDb().update(accounts).set({ sessionVersion: 1 }).where(eq(accounts.id, account.id));
    expect(await listLiveSessions(getDb(), account.id, now)).toEqual([]);
    expect(await touchLiveSession(getDb(), { accountId: account.id, sessionVersion: 0, sessionId: phone }, now)).toBe(false);
    expect(await endAccountSessions(getDb(), { accountId: account.id, now })).toEqual([]);
  });

  it('ends one session, or all but the one in use, audited with the networks; another account’s session is not ended', async () => {
    const owner = await anAccount();
    const stranger = await anAccount();
    const now = new Date();
    const here = await opened(owner.id, '203.0.113.10', now);
    const there = await opened(owner.id, '198.51.100.20', now);
    const elsewhere = await opened(owner.id, '192.0.2.30', now);
    const strangers = await opened(stranger.id, '192.0.2.40', now);
    const by = { actor: 'account:owner@example.com', clientAddress: '203.0.113.10' };

    expect(await endAccountSessions(getDb(), { accountId: owner.id, only: strangers, by, now })).toEqual([]);
    expect(await touchLiveSession(getDb(), { accountId: stranger.id, sessionVersion: 0, sessionId: strangers }, now)).toBe(true);
    expect(await auditOf(owner.id)).toEqual([]);

    expect(await endAccountSessions(getDb(), { accountId: owner.id, only: there, by, now })).toEqual([there]);
    expect(await endAccountSessions(getDb(), { accountId: owner.id, only: there, by, now })).toEqual([]);
    expect(await touchLiveSession(getDb(), { accountId: owner.id, sessionVersion: 0, sessionId: there }, now)).toBe(false);

    expect(await endAccountSessions(getDb(), { accountId: owner.id, except: here, by, now })).toEqual([elsewhere]);
    expect((await listLiveSessions(getDb(), owner.id, now)).map((session) => session.id)).toEqual([here]);
    const audit = await auditOf(owner.id);
    expect(audit.map((entry) => [entry.actor, entry.after])).toEqual([
      [by.actor, { sessions: 1, networks: ['198.51.100.0/24'], from: '203.0.113.0/24' }],
      [by.actor, { sessions: 1, networks: ['192.0.2.0/24'], from: '203.0.113.0/24' }],
    ]);

    // Sign-out ends its own session, unaudited.
    expect(await endAccountSessions(getDb(), { accountId: owner.id, only: here, now })).toEqual([here]);
    expect(await auditOf(owner.id)).toHaveLength(2);
  });

  it('the account page’s choice: one session (this one says so), all but this one, or a refusal naming what is wrong', async () => {
    const owner = await anAccount();
    const now = new Date();
    const here = await opened(owner.id, '203.0.113.10', now);
    const there = await opened(owner.id, '198.51.100.20', now);
    const page = (choice: unknown) => endSessionsFromAccountPage(getDb(), { accountId: owner.id, currentSessionId: here, choice, by: { actor: 'account:owner', clientAddress: '203.0.113.10' }, now });
    for (const malformed of [null, 'all', {}, { sessionId: '' }, { sessionId: 7 }, { allButThis: 'yes' }]) {
      await expect(page(malformed)).rejects.toMatchObject({ kind: 'action_refused', userMessage: { key: 'accounts.sessionNotChosen' } });
    }
    expect(await page({ allButThis: true })).toEqual({ ended: 1, thisOne: false });
    await expect(page({ sessionId: there })).rejects.toMatchObject({ userMessage: { key: 'accounts.sessionEnded' } });
    expect(await page({ sessionId: here })).toEqual({ ended: 1, thisOne: true });
    expect(await listLiveSessions(getDb(), owner.id, now)).toEqual([]);
  });

  it('names networks as the owner reads them and devices by browser and system', () => {
    expect(sessionNetworkOf('203.0.113.77')).toBe('203.0.113.0/24');
    expect(sessionNetworkOf('::ffff:203.0.113.77')).toBe('203.0.113.0/24');
    expect(sessionNetworkOf('[2001:DB8::1]:443')).toBe('2001:db8::/64');
    expect(sessionNetworkOf('unknown')).toBe('unknown');
    expect(sessionDeviceOf('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36 Edg/150.0.0.0')).toEqual({ browser: 'Edge', system: 'Windows' });
    expect(sessionDeviceOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15')).toEqual({ browser: 'Safari', system: 'macOS' });
    expect(sessionDeviceOf('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0 Mobile Safari/537.36 MicroMessenger/8.0.50')).toEqual({ browser: 'WeChat', system: 'Android' });
    expect(sessionDeviceOf('Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0')).toEqual({ browser: 'Firefox', system: 'Linux' });
    expect(sessionDeviceOf('curl/8.5.0')).toEqual({ browser: undefined, system: undefined });
  });
});
