import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { createAccount } from '../accounts/accounts';
import { addReceivingAddress } from '../channels/usdt/receiving-addresses';
import { createMerchant } from '../merchants/merchants';
import { tronAddressFromAccountBytes } from '../channels/usdt/tron/address';

const FIRST_RUN_LOCK_KEY = 727_002;

/** A fixed, valid sandbox address so that development data looks the same on every machine. */
export const SANDBOX_RECEIVING_ADDRESS = tronAddressFromAccountBytes(Buffer.alloc(20, 0x5a));

export interface FirstRunCredentials {
  operator: { email: string; password: string };
  merchant: { appId: string; appSecret: string; email: string; password: string };
  receivingAddress: string;
}

/**
 * On an empty development database: a demo operator, a demo merchant with order permission, and a sandbox
 * receiving address. Returns the credentials (to be printed once) or undefined when the database was not empty.
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
    await addReceivingAddress(txDb, 'TRC20', SANDBOX_RECEIVING_ADDRESS);
    return {
      operator: { email: 'operator@example.com', password: operatorPassword },
      merchant: { appId: merchant.appId, appSecret, email: 'merchant@example.com', password: merchantPassword },
      receivingAddress: SANDBOX_RECEIVING_ADDRESS,
    };
  });
}

export interface RunningService {
  /** Where the service answers (PUBLIC_BASE_URL, or http://localhost:<PORT>). */
  baseUrl: string;
  /** Whether notifications may go to loopback and private addresses (development's default). */
  loopbackNotifications: boolean;
}

export function describeFirstRun(credentials: FirstRunCredentials, service: RunningService): string {
  return [
    'First run: demo accounts were created (shown this once; the AppSecret is stored encrypted).',
    `  merchant appId     ${credentials.merchant.appId}`,
    `  merchant AppSecret ${credentials.merchant.appSecret}`,
    `  merchant sign-in   ${credentials.merchant.email} / ${credentials.merchant.password}`,
    `  operator sign-in   ${credentials.operator.email} / ${credentials.operator.password}`,
    `  USDT receiving address (sandbox) ${credentials.receivingAddress}`,
    `  merchant portal    ${service.baseUrl}/portal  (sign-in, API keys, orders, signed examples at /portal/api)`,
    `  operator console   ${service.baseUrl}/operator`,
    `  checkout pages     ${service.baseUrl}/pay/<token>  (each order's payUrl; the README shows how to create one)`,
    `  sandbox wallet     ${service.baseUrl}/sandbox/tron  (pays USDT orders; \`npm run sandbox -- tron transfer\` does it too)`,
    service.loopbackNotifications
      ? '  notifications      a notifyUrl on 127.0.0.1 or another private address is allowed here (development; production refuses it)'
      : '  notifications      notifyUrl must be reachable from the internet (private addresses are refused)',
  ].join('\n');
}
