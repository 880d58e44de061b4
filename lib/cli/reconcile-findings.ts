import type { DayFinding } from '../reconciliation/reconciliation-view';
import type { CliCommand } from './command';
import { validDay } from './reconcile-day-option';

/** A finding as the CLI prints it with --json: what an operator needs to look it up and to credit it. */
export function findingJson(finding: DayFinding) {
  return {
    id: finding.id,
    kind: finding.kind,
    channel: finding.channel,
    scope: finding.scope,
    reference: finding.reference,
    orderNo: finding.orderNo,
    merchantOrderNo: finding.merchantOrderNo,
    appId: finding.appId,
    upstreamReference: finding.upstreamReference || null,
    upstreamAmount: finding.upstreamAmount,
    oursAmount: finding.oursAmount,
    upstreamStatus: finding.upstreamStatus,
    oursStatus: finding.oursStatus,
    upstreamAt: finding.upstreamAt?.toISOString() ?? null,
    resolvedAt: finding.resolvedAt?.toISOString() ?? null,
    resolvedBy: finding.resolvedBy,
    creditable: finding.creditable,
  };
}

/** One line per finding, with the command that credits it where it can be credited. */
export function findingLine(finding: DayFinding): string {
  const order = finding.orderNo ? `order ${finding.orderNo}${finding.merchantOrderNo ? ` (${finding.merchantOrderNo})` : ''}` : finding.reference;
  const upstream = finding.upstreamReference ? `upstream ${finding.upstreamReference}` : 'nothing upstream';
  const amounts = `upstream ${finding.upstreamAmount ?? '—'}, here ${finding.oursAmount ?? '—'}`;
  const state = finding.resolvedAt ? `credited by ${finding.resolvedBy ?? '?'}` : finding.creditable ? `credit: npm run admin -- reconcile credit --finding ${finding.id}` : 'open';
  return `  finding ${finding.id}: ${finding.kind} ${finding.channel} ${order}, ${upstream}; ${amounts}; ${state}`;
}

const findingsUsage = `usage: npm run admin -- reconcile findings --date <yyyy-MM-dd> [--channel <payType>] [--open] [--json]

Lists the findings of a reconciled day (Beijing time), run by run: each with its id (for reconcile credit), its kind,
the order here and the upstream's number, and both amounts.

  --date <yyyy-MM-dd>    the reconciled day
  --channel <payType>    only this channel's
  --open                 only those no operator has credited yet
  --json                 print one JSON object: {"day","findings":[{"id","kind","channel","scope","reference","orderNo",
                         "merchantOrderNo","upstreamReference","upstreamAmount","oursAmount",…}]}`;

export const reconcileFindings: CliCommand = {
  group: 'reconcile',
  action: 'findings',
  summary: "list a reconciled day's findings with their ids",
  usage: findingsUsage,
  options: { date: { type: 'string' }, channel: { type: 'string' }, open: { type: 'boolean' } },
  prepare(args) {
    args.expectPositionals();
    const day = validDay(args);
    const channel = args.optional('channel')?.toUpperCase();
    const openOnly = args.flag('open');
    return async (db) => {
      const { findingsOfDay } = await import('../reconciliation/reconciliation-view');
      const findings = await findingsOfDay(db, day, { channel, openOnly });
      const none = `${day}: no ${openOnly ? 'open ' : ''}findings${channel ? ` for ${channel}` : ''}`;
      return { json: { day, findings: findings.map(findingJson) }, text: findings.length === 0 ? none : `${day}\n${findings.map(findingLine).join('\n')}` };
    };
  },
};
