import type { CliCommand } from './command';
import { cliActor } from './operator';

const reconcileUsage = `usage: npm run admin -- reconcile --date <yyyy-MM-dd> [--channel <payType>] [--json]

Reconciles one day (Beijing time) of every channel with an upstream record: the daily trade bill of each Alipay app
and WeChat Pay merchant the credentials use, and the USDT transfers to our receiving addresses read again from each
chain (TRON, and the EVM chains of USDT_EVM_CHAINS). Every upstream trade and refund is matched against the orders by number and amount; the differences are stored
as findings (the operator console's Reconciliation page and attention list). Running a day again replaces its
findings. Bills are published the next day: today's day is reported unavailable.

  --date <yyyy-MM-dd>    the day to reconcile
  --channel <payType>    only this channel (ALIPAY, WECHAT, USDT)
  --json                 print one JSON object: {"day","runs":[{"channel","scope","status","detail","findings",…}]}

exit codes: 0 when every run completed or was unavailable, 2 when a run failed (its reason is printed).`;

export const reconcileCommand: CliCommand = {
  group: 'reconcile',
  action: '',
  summary: "reconcile a day against the upstreams' bills and the chains",
  usage: reconcileUsage,
  options: { date: { type: 'string' }, channel: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const day = args.required('date');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) {
      args.fail(`option --date must be a day as yyyy-MM-dd, got ${JSON.stringify(day)}`);
    }
    const channel = args.optional('channel');
    return async (db) => {
      const { reconcileDay } = await import('../reconciliation/reconcile-day');
      const { formatMinorUnits } = await import('../money/decimal-amount');
      const outcomes = await reconcileDay(db, { day, now: () => new Date(), channels: channel ? [channel] : undefined });
      const runs = outcomes.map((outcome) => ({
        channel: outcome.channel,
        scope: outcome.scope,
        status: outcome.status,
        detail: outcome.detail,
        findings: outcome.totals?.findingCount ?? 0,
        upstreamCount: outcome.totals?.upstreamCount ?? 0,
        upstreamTotal: formatMinorUnits(outcome.totals?.upstreamTotalMinor ?? 0n),
        upstreamRefundCount: outcome.totals?.upstreamRefundCount ?? 0,
        oursCount: outcome.totals?.oursCount ?? 0,
        oursTotal: formatMinorUnits(outcome.totals?.oursTotalMinor ?? 0n),
      }));
      const failed = runs.filter((run) => run.status === 'failed');
      const lines = runs.map((run) =>
        run.status === 'complete'
          ? `${run.channel} ${run.scope}: upstream ${run.upstreamCount} (${run.upstreamTotal}), here ${run.oursCount} (${run.oursTotal}), ${run.upstreamRefundCount} refund(s); ${run.findings === 0 ? 'clean' : `${run.findings} finding(s)`}`
          : `${run.channel} ${run.scope}: ${run.status}: ${run.detail}`,
      );
      if (failed.length > 0) throw new Error(`reconciliation of ${day} failed for ${failed.map((run) => `${run.channel} ${run.scope}`).join(', ')}:\n${lines.join('\n')}`);
      return { json: { day, runs }, text: runs.length === 0 ? `${day}: nothing to reconcile (no credentials, no chains)` : `${day}\n${lines.join('\n')}` };
    };
  },
};

const creditUsage = `usage: npm run admin -- reconcile credit --finding <id> [--json]

Credits the order of a finding "paid upstream but not here": the order is marked paid at the upstream's pay time with
its trade number, the merchant is notified, and the action is written to the audit log (who: $OPERATOR, else your
user name). A finding is credited once; one whose amounts differ cannot be.

  --finding <id>   the finding's id (the Reconciliation page, or reconcile --json)
  --json           print one JSON object: {"orderNo","auditId"}`;

export const reconcileCredit: CliCommand = {
  group: 'reconcile',
  action: 'credit',
  summary: 'credit the order of a finding paid upstream but not here (audited, notifies)',
  usage: creditUsage,
  options: { finding: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const text = args.required('finding');
    if (!/^[1-9]\d{0,15}$/.test(text)) args.fail(`option --finding must be a finding id, got ${JSON.stringify(text)}`);
    return async (db) => {
      const { creditFinding } = await import('../reconciliation/credit-finding');
      const result = await creditFinding(db, { findingId: Number(text), actor: cliActor(), now: new Date() });
      return { json: result, text: `order ${result.orderNo} credited; audit entry ${result.auditId}; notification queued` };
    };
  },
};

export const reconcileCommands: CliCommand[] = [reconcileCommand, reconcileCredit];
