import { and, count, desc, eq, ilike, like, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { auditLog } from '../db/schema';
import { containsPattern, pageOf, type Page } from './paging';

export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilter {
  /** An exact action (`credential.approve`) or a family ending in a dot or star (`credential.`, `credential.*`). */
  action?: string;
  /** Part of the actor (case-insensitive): an operator's email, `cli:`, `account:`. */
  actor?: string;
  page: number;
}

export type AuditRow = typeof auditLog.$inferSelect;

/** The audit log, newest first, filtered and paged. */
export async function listAuditLog(db: Database, filter: AuditFilter): Promise<Page<AuditRow>> {
  const conditions: SQL[] = [];
  const action = filter.action?.trim();
  if (action) {
    const family = action.endsWith('*') ? action.slice(0, -1) : action.endsWith('.') ? action : undefined;
    conditions.push(family !== undefined ? like(auditLog.action, `${family.replace(/[\\%_]/g, (char) => `\\${char}`)}%`) : eq(auditLog.action, action));
  }
  const actor = filter.actor?.trim();
  if (actor) conditions.push(ilike(auditLog.actor, containsPattern(actor)));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [totals] = await db.select({ total: count() }).from(auditLog).where(where);
  const rows = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE)
    .offset((filter.page - 1) * AUDIT_PAGE_SIZE);
  return pageOf(rows, totals?.total ?? 0, filter.page, AUDIT_PAGE_SIZE);
}

/** The distinct actions recorded so far, for the filter's choices. */
export async function auditActions(db: Database): Promise<string[]> {
  const rows = await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action);
  return rows.map((row) => row.action);
}
