import type { CliCommand } from './command';
import { ExplainedFailure } from './explained-failure';
import { cliActor } from './operator';
import { validDay } from './reconcile-day-option';
import { findingJson, findingLine, reconcileFindings } from './reconcile-findings';

const reconcileUsage = `usage: npm run admin -- reconcile --date <yyyy-MM-dd> [--channel <payType>] [--json]

Reconciles one day (Beijing time) of every channel with an upstream record: the upstream's daily trade bill of each
account there (an application, a merchant number) the credentials use, and the transfers to our receiving addresses
read again from each chain (TRON, and the EVM chains of USDT_EVM_CHAINS). Every upstream trade and refund is matched against the orders by number and amount; the differences are stored
as findings (the operator console's Reconciliation page and attention list), each printed with its id for reconcile
credit (reconcile findings lists them again). Running a day again replaces its findings once it completes: a run
that fails, or finds no bill, leaves a completed one and its findings as they were. Bills are published the next day:
today's day is reported unavailable. In development the bills come from the sandbox of the running service (the
address it recorded in the database, unless PUBLIC_BASE_URL is set here).

  --date <yyyy-MM-dd>    the day to reconcile
  --channel <payType>    only this channel (one with an upstream record: a bill or chains)
  --json                 print one JSON object: {"day","runs":[{"channel","scope","status","detail","findings",…}],
                         "findings":[{"id","kind","channel","scope","reference","orderNo","merchantOrderNo",
                         "upstreamReference","upstreamAmount","oursAmount",…}]} (runs[].findings is their count)

exit codes: 0 when every run completed or was unavailable, 2 when a run failed (its reason is printed).`;

export const reconcileCommand: CliCommand = {
  group: 'reconcile',
  action: '',
  summary: "reconcile a day against the upstreams' bills and the chains",
  usage: reconcileUsage,
  options: { date: { type: 'string' }, channel: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const day = validDay(args);
    const channel = args.optional('channel');
    return async (db) => {
      const [{ reconcileDay }, { CHANNELS }, { formatMinorUnits }, { findingsOfDay }, { adoptRunningServiceSandbox }] = await Promise.all([
        import('../reconciliation/reconcile-day'),
        import('../channels'),
        import('../money/decimal-amount'),
        import('../reconciliation/reconciliation-view'),
        import('../sandbox/running-service-sandbox'),
      ]);
      await adoptRunningServiceSandbox(db, CHANNELS, channel ? [channel] : undefined);
      const outcomes = await reconcileDay(db, CHANNELS, { day, now: () => new Date(), channels: channel ? [channel] : undefined });
      const runs = outcomes.map((outcome) => ({
        channel: outcome.channel,
        scope: outcome.scope,
        status: outcome.status,
        detail: outcome.detail,
        keptCompletedRun: outcome.keptCompletedRun ?? false,
        findings: outcome.totals?.findingCount ?? 0,
        upstreamCount: outcome.totals?.upstreamCount ?? 0,
        upstreamTotal: formatMinorUnits(outcome.totals?.upstreamTotalMinor ?? 0n),
        upstreamRefundCount: outcome.totals?.upstreamRefundCount ?? 0,
        oursCount: outcome.totals?.oursCount ?? 0,
        oursTotal: formatMinorUnits(outcome.totals?.oursTotalMinor ?? 0n),
      }));
      // The findings of the runs that completed now (a run that did not complete has none of its own to show).
      const completed = new Set(outcomes.filter((outcome) => outcome.status === 'complete').map((outcome) => outcome.runId));
      const findings = (await findingsOfDay(db, day, { channel })).filter((finding) => completed.has(finding.runId));
      const failed = runs.filter((run) => run.status === 'failed');
      const lines = runs.map((run, index) =>
        run.status === 'complete'
          ? [
              `${run.channel} ${run.scope}: upstream ${run.upstreamCount} (${run.upstreamTotal}), here ${run.oursCount} (${run.oursTotal}), ${run.upstreamRefundCount} refund(s); ${run.findings === 0 ? 'clean' : `${run.findings} finding(s)`}`,
              ...findings.filter((finding) => finding.runId === outcomes[index]!.runId).map(findingLine),
            ].join('\n')
          : `${run.channel} ${run.scope}: ${run.status}: ${run.detail}${outcomes[index]!.keptCompletedRun ? ' (the completed run and its findings stay as they were)' : ''}`,
      );
      if (failed.length > 0) throw new ExplainedFailure(`reconciliation of ${day} failed for ${failed.map((run) => `${run.channel} ${run.scope}`).join(', ')}:\n${lines.join('\n')}`);
      return { json: { day, runs, findings: findings.map(findingJson) }, text: runs.length === 0 ? `${day}: nothing to reconcile (no credentials, no chains)` : `${day}\n${lines.join('\n')}` };
    };
  },
};

const creditUsage = `usage: npm run admin -- reconcile credit --finding <id> [--json]

Credits the order of a finding "paid upstream but not here": the order is marked paid at the upstream's pay time with
its trade number, the merchant is notified, and the action is written to the audit log (who: $OPERATOR, else your
user name). A finding is credited once; one whose amounts differ cannot be.

  --finding <id>   the finding's id (the Reconciliation page, reconcile --json, or reconcile findings)
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

export const reconcileCommands: CliCommand[] = [reconcileCommand, reconcileFindings, reconcileCredit];
