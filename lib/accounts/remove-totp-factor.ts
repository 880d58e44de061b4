import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import { recordAudit } from '../audit/record-audit';
import { actionRefused } from '../errors/domain-error';
import { domainMessage } from '../errors/domain-message';
import { confirmStepUp, type StepUpSession } from './step-up';
import { dropTotpFactor } from './totp-factor';

/**
 * The owner removes their authenticator app: a sensitive action, so the step-up first (the app's code, unless this
 * session answered it in the last 10 minutes). The account's other sessions end (the session version moves on).
 */
export async function removeTotpFactor(db: Database, input: StepUpSession & { answer: string; now: Date }): Promise<{ sessionVersion: number }> {
  await confirmStepUp(db, input);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [account] = await tx.select({ id: accounts.id, email: accounts.email }).from(accounts).where(eq(accounts.id, input.accountId)).limit(1);
    if (!account) throw actionRefused(`account ${input.accountId} not found`);
    const dropped = await dropTotpFactor(tx, account.id);
    if (!dropped.removed) throw actionRefused('no authenticator app is set up', domainMessage('accounts.secondFactorNotSet'));
    await recordAudit(tx, { actor: `account:${account.email}`, action: 'account.second_factor_remove', subject: `account:${account.id}`, after: { kind: 'totp' } });
    return { sessionVersion: dropped.sessionVersion };
  });
}
