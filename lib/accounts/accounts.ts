import { hash } from '@node-rs/argon2';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';

export type AccountRole = 'merchant' | 'operator';

export async function createAccount(
  db: Database,
  input: { email: string; password: string; role: AccountRole; merchantId?: number },
) {
  const [row] = await db
    .insert(accounts)
    .values({ email: input.email.toLowerCase(), passwordHash: await hash(input.password), role: input.role, merchantId: input.merchantId })
    .returning({ id: accounts.id, email: accounts.email, role: accounts.role });
  return row!;
}
