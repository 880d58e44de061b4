import type { FindingKind } from '../db/schema';

/**
 * Findings that ask nothing of the operator on the reconciliation page, so they are not on the attention list:
 * trades on the upstream account that this service never made (another app or shop), and payments the service had
 * already recorded as late payments (that record is on the attention list, and the merchant refunds it).
 */
export const LOW_SEVERITY_FINDINGS: readonly FindingKind[] = ['not_made_here', 'late_payment'];

export const isLowSeverity = (kind: FindingKind) => LOW_SEVERITY_FINDINGS.includes(kind);
