import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { createAccount } from '../accounts/accounts';
import { CHANNELS } from '../channels';
import { createMerchant } from '../merchants/merchants';

const FIRST_RUN_LOCK_KEY = 727_002;

export interface FirstRunCredentials {
  operator: { email: string; password: string };
  merchant: { appId: string; appSecret: string; email: string; password: string };
}

/**
 * On an empty development database: a demo operator, a demo merchant with order permission, and what each channel
 * seeds for a demo order (its firstRun). Returns the credentials (to be printed once) or undefined when the database was not empty.
 */
export async function seedFirstRun(db: Database): Promise<FirstRunCredentials | undefined> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_RUN_LOCK_KEY})`);
    const { rows } = await tx.execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM merchants`);
    if ((rows[0]?.count ?? 0) > 0) return undefined;
    const txDb = tx as unknown as Database;
    const { merchant, appSecret } = await createMerchant(txDb, { name: 'Demo merchant', orderPermission: true });
    const operatorPassword = randomBytes(9).toString('base64url');
    const merchantPassword = randomBytes(9).toString('base64url');
    await createAccount(txDb, { email: 'operator@example.com', password: operatorPassword, role: 'operator' });
    await createAccount(txDb, { email: 'merchant@example.com', password: merchantPassword, role: 'merchant', merchantId: merchant.id });
    for (const channel of CHANNELS) await channel.firstRun?.seed(txDb);
    return {
      operator: { email: 'operator@example.com', password: operatorPassword },
      merchant: { appId: merchant.appId, appSecret, email: 'merchant@example.com', password: merchantPassword },
    };
  });
}

export interface RunningService {
  /** Where the service answers (PUBLIC_BASE_URL, or http://localhost:<PORT>). */
  baseUrl: string;
  /** Whether notifications may go to loopback and private addresses (development's default). */
  loopbackNotifications: boolean;
}

/** The banner's lines are a label padded to this width, then the value. */
const LABEL_WIDTH = 18;

export function describeFirstRun(credentials: FirstRunCredentials, service: RunningService): string {
  const channelLines = CHANNELS.flatMap((channel) => channel.firstRun?.describe(service) ?? []);
  return [
    'First run: demo accounts were created (shown this once; the AppSecret is stored encrypted).',
    `  merchant appId     ${credentials.merchant.appId}`,
    `  merchant AppSecret ${credentials.merchant.appSecret}`,
    `  merchant sign-in   ${credentials.merchant.email} / ${credentials.merchant.password}`,
    `  operator sign-in   ${credentials.operator.email} / ${credentials.operator.password}`,
    `  merchant portal    ${service.baseUrl}/portal  (sign-in, API keys, orders, signed examples at /portal/api)`,
    `  operator console   ${service.baseUrl}/operator`,
    `  checkout pages     ${service.baseUrl}/pay/<token>  (each order's payUrl; the README shows how to create one)`,
    ...channelLines.map(({ label, value }) => `  ${label.padEnd(LABEL_WIDTH)} ${value}`),
    service.loopbackNotifications
      ? '  notifications      a notifyUrl on 127.0.0.1 or another private address is allowed here (development; production refuses it)'
      : '  notifications      notifyUrl must be reachable from the internet (private addresses are refused)',
  ].join('\n');
}
