import { and, asc, desc, eq, ilike, like, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { auditLog } from '../db/schema';
import { keysetPage, keysetQuery, type KeysetPage, type KeysetRequest } from '../db/keyset';
import { containsPattern } from './paging';

export const AUDIT_PAGE_SIZE = 50;

export interface AuditFilter extends KeysetRequest {
  /** An exact action (`credential.approve`) or a family ending in a dot or star (`credential.`, `credential.*`). */
  action?: string;
  /** Part of the actor (case-insensitive): an operator's email, `cli:`, `account:`. */
  actor?: string;
}

export type AuditRow = typeof auditLog.$inferSelect;

/** The audit log, newest first, filtered and paged by keyset on its id. */
export async function listAuditLog(db: Database, filter: AuditFilter): Promise<KeysetPage<AuditRow>> {
  const conditions: SQL[] = [];
  const action = filter.action?.trim();
  if (action) {
    const family = action.endsWith('*') ? action.slice(0, -1) : action.endsWith('.') ? action : undefined;
    conditions.push(family !== undefined ? like(auditLog.action, `${family.replace(/[\\%_]/g, (char) => `\\${char}`)}%`) : eq(auditLog.action, action));
  }
  const actor = filter.actor?.trim();
  if (actor) conditions.push(ilike(auditLog.actor, containsPattern(actor)));
  const page = keysetQuery(filter, auditLog.id);
  if (page.where) conditions.push(page.where);
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(page.descending ? desc(auditLog.id) : asc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1);
  return keysetPage(page, rows, AUDIT_PAGE_SIZE);
}

/** The distinct actions recorded so far, for the filter's choices. */
export async function auditActions(db: Database): Promise<string[]> {
  const rows = await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action);
  return rows.map((row) => row.action);
}
