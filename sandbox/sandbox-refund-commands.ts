import type { CliCommand } from '@/lib/cli/command';
import { actionRefused } from '@/lib/errors/domain-error';
import type { Database } from '@/lib/db/client';

/**
 * A simulated upstream's refund controls: `refund-plan --order <no> --plan …` (what the order's next refund meets,
 * each upstream's own plans, or `none`) and `refund-settle --refund <no> [--status …] [--success-time <instant>]` (an
 * open refund becomes final, as the upstream would finish it later; a success at the time given, so that a refund
 * accepted on one day and done on the next, as card refunds are, is made on demand rather than by waiting a day).
 */
export function sandboxRefundCommands<Plan extends string>(upstream: {
  group: string;
  /** Each plan and what the refund meets under it, as the usage lists it. */
  plans: Readonly<Record<Plan, string>>;
  plan: (db: Database, orderNo: string, plan: Plan | null) => Promise<unknown>;
  /** Finishes the refund in `status`; a success at `successTime` (the upstream's own time of it). */
  settle: (db: Database, refundNo: string, status: string, successTime: Date) => Promise<unknown>;
  /** When the simulator accepted the refund (undefined: it has none of that number). */
  acceptedAt: (db: Database, refundNo: string) => Promise<Date | undefined>;
  /** The first is the success, the only one with a time. */
  statuses: readonly string[];
  /** What the success time is called at this upstream, for the usage. */
  successTimeName: string;
}): CliCommand[] {
  const choices = [...Object.keys(upstream.plans), 'none'];
  const width = Math.max(...choices.map((choice) => choice.length)) + 2;
  const planLines = Object.entries<string>(upstream.plans).map(([name, meaning]) => `  ${name.padEnd(width)}${meaning}`);
  const plan: CliCommand = {
    group: upstream.group,
    action: 'refund-plan',
    summary: "set what the order's next refund meets at the simulator",
    usage: `usage: npm run sandbox -- ${upstream.group} refund-plan --order <platformOrderNo> --plan ${choices.join('|')} [--json]

${planLines.join('\n')}
  ${'none'.padEnd(width)}the next refund succeeds at once`,
    options: { order: { type: 'string' }, plan: { type: 'string' } },
    prepare(args) {
      args.expectPositionals();
      const orderNo = args.required('order').trim();
      const choice = args.required('plan');
      if (!choices.includes(choice)) args.fail(`option --plan must be one of ${choices.join(', ')}`);
      return async (db) => {
        if (!(await upstream.plan(db, orderNo, choice === 'none' ? null : (choice as Plan)))) throw actionRefused(`no sandbox ${upstream.group} order ${orderNo}`);
        return { json: { order: orderNo, plan: choice }, text: `${orderNo}: next refund ${choice}` };
      };
    },
  };
  const success = upstream.statuses[0]!;
  const settle: CliCommand = {
    group: upstream.group,
    action: 'refund-settle',
    summary: 'finish an open (processing or abnormal) refund at the simulator',
    usage: `usage: npm run sandbox -- ${upstream.group} refund-settle --refund <refundNo> [--status ${upstream.statuses.join('|')}] [--success-time <instant>] [--json]

  --success-time <instant>  when the refund succeeded (${upstream.successTimeName}), ISO 8601 with its offset, such as
                            2026-03-02T15:00:00+08:00; not before the refund was accepted, not in the future; default
                            now. With --status ${success} only. A refund accepted on day D (refund-plan processing) and
                            settled with a time on D+1 is one that a bank card took a day to receive.`,
    options: { refund: { type: 'string' }, status: { type: 'string' }, 'success-time': { type: 'string' } },
    prepare(args) {
      args.expectPositionals();
      const refundNo = args.required('refund').trim();
      const status = args.optional('status') ?? success;
      if (!upstream.statuses.includes(status)) args.fail(`option --status must be one of ${upstream.statuses.join(', ')}`);
      const asked = args.optional('success-time');
      const successTime = asked === undefined ? undefined : instantOf(asked);
      if (asked !== undefined && !successTime) args.fail(`option --success-time must be an instant as ISO 8601 with its offset, such as 2026-03-02T15:00:00+08:00; got ${JSON.stringify(asked)}`);
      if (successTime && status !== success) args.fail(`option --success-time applies to --status ${success} only (a ${status} refund has no success time)`);
      if (successTime && successTime.getTime() > Date.now()) args.fail(`option --success-time must not be in the future; got ${asked}`);
      return async (db) => {
        if (successTime) {
          const accepted = await upstream.acceptedAt(db, refundNo);
          if (accepted && successTime.getTime() < accepted.getTime()) {
            throw actionRefused(`option --success-time ${successTime.toISOString()} is before the simulator accepted refund ${refundNo} (${accepted.toISOString()})`);
          }
        }
        const at = successTime ?? new Date();
        if (!(await upstream.settle(db, refundNo, status, at))) throw actionRefused(`no open sandbox ${upstream.group} refund ${refundNo} that can become ${status}`);
        const time = status === success ? at.toISOString() : null;
        return { json: { refund: refundNo, status, successTime: time }, text: `${refundNo}: ${status}${time ? ` at ${time}` : ''}` };
      };
    },
  };
  return [plan, settle];
}

/** An instant written as ISO 8601 with a date, a time and an offset (or Z), or undefined: a zoneless time would be read in the machine's zone. */
function instantOf(text: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text.trim())) return undefined;
  const at = new Date(text.trim());
  return Number.isNaN(at.getTime()) ? undefined : at;
}
