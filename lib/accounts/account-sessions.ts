import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts, accountSessions } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { actionRefused } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { throttledClientOf } from './client-address';

/** A session unused this long is over: the session token's own lifetime (app/portal/_session/auth-options.ts). */
export const SESSION_IDLE_LIMIT_MS = 8 * 60 * 60_000;
/** Last seen is written at most this often per session, so that a page view is not a write. */
const LAST_SEEN_GRANULARITY_MS = 60_000;
const USER_AGENT_KEPT = 300;
/** Sessions over (ended or idle) are kept this long after their last use, then deleted at the account's next sign-in. */
const OVER_SESSIONS_KEPT_MS = 30 * 24 * 60 * 60_000;

/** What a session token says of its session. */
export interface SessionToken {
  accountId: number;
  sessionVersion: number;
  sessionId: string;
}

export interface LiveSession {
  id: string;
  userAgent: string;
  network: string;
  signedInAt: Date;
  lastSeenAt: Date;
}

/**
 * The network a session is shown from: an IPv4 address's /24, an IPv6 address's /64. Enough for an owner to tell
 * the office from a stranger; the full address is never kept.
 */
export function sessionNetworkOf(clientAddress: string): string {
  const client = throttledClientOf(clientAddress);
  const ipv4 = /^(\d+)\.(\d+)\.(\d+)\.\d+$/.exec(client);
  return ipv4 ? `${ipv4[1]}.${ipv4[2]}.${ipv4[3]}.0/24` : client;
}

const liveSince = (now: Date) => new Date(now.getTime() - SESSION_IDLE_LIMIT_MS);

/** A good sign-in opens a session (its id goes into the session token) and deletes the account's long-over ones. */
export async function openAccountSession(
  db: Database,
  input: { accountId: number; sessionVersion: number; userAgent: string | undefined; clientAddress: string; now: Date; secondFactorAnswered?: boolean },
): Promise<string> {
  const id = randomBytes(18).toString('base64url');
  await db.insert(accountSessions).values({
    id,
    accountId: input.accountId,
    sessionVersion: input.sessionVersion,
    userAgent: (input.userAgent ?? '').slice(0, USER_AGENT_KEPT),
    network: sessionNetworkOf(input.clientAddress),
    signedInAt: input.now,
    lastSeenAt: input.now,
    secondFactorAt: input.secondFactorAnswered ? input.now : null,
  });
  await db.delete(accountSessions).where(and(eq(accountSessions.accountId, input.accountId), lt(accountSessions.lastSeenAt, new Date(input.now.getTime() - OVER_SESSIONS_KEPT_MS))));
  return id;
}

/**
 * Whether a session token's session is live (not ended, used within the idle limit, of the account's current
 * session version), noting that it was seen now; one statement, a write at most once a minute per session.
 */
export async function touchLiveSession(db: Database, token: SessionToken, now: Date): Promise<boolean> {
  if (typeof token.sessionId !== 'string' || token.sessionId === '' || !Number.isSafeInteger(token.accountId)) return false;
  const { rows } = await db.execute<{ live: boolean }>(sql`
    WITH live AS (
      SELECT s.id, s.last_seen_at FROM ${accountSessions} s JOIN ${accounts} a ON a.id = s.account_id
      WHERE s.id = ${token.sessionId} AND s.account_id = ${token.accountId} AND s.ended_at IS NULL
        AND s.last_seen_at > ${liveSince(now).toISOString()}::timestamptz
        AND s.session_version = ${token.sessionVersion} AND a.session_version = ${token.sessionVersion}
    ), seen AS (
      UPDATE ${accountSessions} SET last_seen_at = ${now.toISOString()}::timestamptz
      WHERE id IN (SELECT id FROM live WHERE last_seen_at < ${new Date(now.getTime() - LAST_SEEN_GRANULARITY_MS).toISOString()}::timestamptz)
      RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM live) AS live`);
  return rows[0]?.live === true;
}

/** The account's live sessions, the most recently used first. */
export async function listLiveSessions(db: Database, accountId: number, now: Date): Promise<LiveSession[]> {
  return db
    .select({ id: accountSessions.id, userAgent: accountSessions.userAgent, network: accountSessions.network, signedInAt: accountSessions.signedInAt, lastSeenAt: accountSessions.lastSeenAt })
    .from(accountSessions)
    .innerJoin(accounts, and(eq(accounts.id, accountSessions.accountId), eq(accounts.sessionVersion, accountSessions.sessionVersion)))
    .where(and(eq(accountSessions.accountId, accountId), isNull(accountSessions.endedAt), gt(accountSessions.lastSeenAt, liveSince(now))))
    .orderBy(desc(accountSessions.lastSeenAt), accountSessions.id);
}

/**
 * Ends sessions of the account: one (`only`), or all but the one in use (`except`), or all. When the owner ends them
 * (`by`), the end is audited: how many, their networks, by whom and from which network; sign-out ends its own
 * session unaudited. The ids ended are returned (none when nothing was live).
 */
export async function endAccountSessions(
  db: Database,
  input: { accountId: number; only?: string; except?: string; by?: { actor: string; clientAddress: string }; now: Date },
): Promise<string[]> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const ended = await tx
      .update(accountSessions)
      .set({ endedAt: input.now })
      .where(
        and(
          eq(accountSessions.accountId, input.accountId),
          isNull(accountSessions.endedAt),
          gt(accountSessions.lastSeenAt, liveSince(input.now)),
          // Sessions from before a password change ended then: they are not counted again.
          eq(accountSessions.sessionVersion, sql`(SELECT ${accounts.sessionVersion} FROM ${accounts} WHERE ${accounts.id} = ${input.accountId})`),
          input.only === undefined ? undefined : eq(accountSessions.id, input.only),
          input.except === undefined ? undefined : ne(accountSessions.id, input.except),
        ),
      )
      .returning({ id: accountSessions.id, network: accountSessions.network });
    if (ended.length > 0 && input.by) {
      await recordAudit(tx, {
        actor: input.by.actor,
        action: 'account.sessions_end',
        subject: `account:${input.accountId}`,
        after: { sessions: ended.length, networks: [...new Set(ended.map((session) => session.network))], from: sessionNetworkOf(input.by.clientAddress) },
      });
    }
    return ended.map((session) => session.id);
  });
}

/** What the owner chose on the account page: one session (this browser's too), or every one but this browser's. */
export type SessionsToEnd = { sessionId: string } | { allButThis: true };

/** Reads the choice as the browser sent it (any shape), or undefined when it names none. */
export function sessionsToEndOf(input: unknown): SessionsToEnd | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const { sessionId, allButThis } = input as { sessionId?: unknown; allButThis?: unknown };
  if (typeof sessionId === 'string' && sessionId !== '') return { sessionId };
  return allButThis === true ? { allButThis: true } : undefined;
}

/**
 * The account page's end of sessions: the chosen one (refused when it is not a live session of this account, so
 * another account's id ends nothing), or all but the one in use. Says how many ended and whether this one did.
 */
export async function endSessionsFromAccountPage(
  db: Database,
  input: { accountId: number; currentSessionId: string; choice: unknown; by: { actor: string; clientAddress: string }; now: Date },
): Promise<{ ended: number; thisOne: boolean }> {
  const choice = sessionsToEndOf(input.choice);
  if (!choice) throw actionRefused('no session named', domainMessage('accounts.sessionNotChosen'));
  const scope = 'sessionId' in choice ? { only: choice.sessionId } : { except: input.currentSessionId };
  const ended = await endAccountSessions(db, { accountId: input.accountId, ...scope, by: input.by, now: input.now });
  if ('sessionId' in choice && ended.length === 0) throw actionRefused('that session has ended already', domainMessage('accounts.sessionEnded'));
  return { ended: ended.length, thisOne: ended.includes(input.currentSessionId) };
}
