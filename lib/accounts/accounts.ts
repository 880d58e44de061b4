import { hash } from '@node-rs/argon2';
import type { Database } from '../db/client';
import { accounts } from '../db/schema';
import type { TeamRole } from './team-roles';

export type AccountRole = 'merchant' | 'operator';

export async function createAccount(
  db: Database,
  input: { email: string; password: string; role: AccountRole; merchantId?: number; teamRole?: TeamRole },
) {
  const [row] = await db
    .insert(accounts)
    .values({ email: input.email.toLowerCase(), passwordHash: await hash(input.password), role: input.role, teamRole: input.role === 'merchant' ? (input.teamRole ?? 'owner') : null, merchantId: input.merchantId })
    .returning({ id: accounts.id, email: accounts.email, role: accounts.role });
  return row!;
}
