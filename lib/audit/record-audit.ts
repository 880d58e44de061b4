import type { Database } from '../db/client';
import { auditLog } from '../db/schema';

export interface AuditEntry {
  actor: string;
  action: string;
  subject: string;
  reason?: string;
  before?: unknown;
  after?: unknown;
}

/** Call with the transaction of the action itself, so the entry exists exactly when the action does. */
export async function recordAudit(tx: Database, entry: AuditEntry): Promise<number> {
  const [row] = await tx
    .insert(auditLog)
    .values({ actor: entry.actor, action: entry.action, subject: entry.subject, reason: entry.reason, before: entry.before ?? null, after: entry.after ?? null })
    .returning({ id: auditLog.id });
  return row!.id;
}
