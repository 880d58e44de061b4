import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { webauthnChallenges, type WebauthnPurpose } from '../db/schema';

/** How long a browser has to answer a passkey ceremony: its prompt, the person's touch or PIN, the post back. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/**
 * Keeps a ceremony's challenge (the random bytes the authenticator signs) until it is answered or expires; the
 * expired ones of earlier ceremonies go on the way. The id is what the browser posts back with its answer.
 */
export async function keepChallenge(db: Database, input: { accountId: number | null; purpose: WebauthnPurpose; challenge: string; now: Date }): Promise<string> {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, input.now));
  const id = randomBytes(18).toString('base64url');
  await db.insert(webauthnChallenges).values({ id, accountId: input.accountId, purpose: input.purpose, challenge: input.challenge, expiresAt: new Date(input.now.getTime() + CHALLENGE_TTL_MS) });
  return id;
}

/**
 * The challenge an answer names, taken (deleted) in one statement, so that it is answered once however many posts
 * race with it: undefined when it is unknown, expired, for another purpose or another account, or already taken.
 */
export async function takeChallenge(db: Database, input: { id: string; purpose: WebauthnPurpose; accountId: number | null; now: Date }): Promise<string | undefined> {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.id, input.id),
        eq(webauthnChallenges.purpose, input.purpose),
        input.accountId === null ? isNull(webauthnChallenges.accountId) : eq(webauthnChallenges.accountId, input.accountId),
        gt(webauthnChallenges.expiresAt, input.now),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return row?.challenge;
}
