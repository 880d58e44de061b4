import type { CliCommand } from '@/lib/cli/command';
import { actionRefused } from '@/lib/errors/domain-error';
import type { Database } from '@/lib/db/client';

export const REFUND_PLAN_CHOICES = ['processing', 'fail', 'timeout_once', 'none'] as const;
type PlanChoice = (typeof REFUND_PLAN_CHOICES)[number];

/**
 * A simulated upstream's refund controls: `refund-plan --order <no> --plan …` (what the order's next refund meets:
 * stays processing, fails, or is answered too late once) and `refund-settle --refund <no> [--status …]` (a processing
 * refund becomes final, as the upstream would finish it later).
 */
export function sandboxRefundCommands(upstream: {
  group: string;
  plan: (db: Database, orderNo: string, plan: Exclude<PlanChoice, 'none'> | null) => Promise<unknown>;
  settle: (db: Database, refundNo: string, status: string) => Promise<unknown>;
  statuses: readonly string[];
}): CliCommand[] {
  const plan: CliCommand = {
    group: upstream.group,
    action: 'refund-plan',
    summary: "set what the order's next refund meets at the simulator",
    usage: `usage: npm run sandbox -- ${upstream.group} refund-plan --order <platformOrderNo> --plan ${REFUND_PLAN_CHOICES.join('|')} [--json]

  processing    the refund is accepted and stays processing until refund-settle
  fail          the refund is refused (Alipay) or turns abnormal (WeChat Pay)
  timeout_once  the refund is made, its answer comes after the caller's timeout (SANDBOX_SLOW_ANSWER_MS), once
  none          the next refund succeeds at once`,
    options: { order: { type: 'string' }, plan: { type: 'string' } },
    prepare(args) {
      args.expectPositionals();
      const orderNo = args.required('order').trim();
      const choice = args.required('plan') as PlanChoice;
      if (!REFUND_PLAN_CHOICES.includes(choice)) args.fail(`option --plan must be one of ${REFUND_PLAN_CHOICES.join(', ')}`);
      return async (db) => {
        if (!(await upstream.plan(db, orderNo, choice === 'none' ? null : (choice as Exclude<PlanChoice, 'none'>)))) throw actionRefused(`no sandbox ${upstream.group} order ${orderNo}`);
        return { json: { order: orderNo, plan: choice }, text: `${orderNo}: next refund ${choice}` };
      };
    },
  };
  const settle: CliCommand = {
    group: upstream.group,
    action: 'refund-settle',
    summary: 'finish a processing refund at the simulator',
    usage: `usage: npm run sandbox -- ${upstream.group} refund-settle --refund <refundNo> [--status ${upstream.statuses.join('|')}] [--json]`,
    options: { refund: { type: 'string' }, status: { type: 'string' } },
    prepare(args) {
      args.expectPositionals();
      const refundNo = args.required('refund').trim();
      const status = args.optional('status') ?? upstream.statuses[0]!;
      if (!upstream.statuses.includes(status)) args.fail(`option --status must be one of ${upstream.statuses.join(', ')}`);
      return async (db) => {
        if (!(await upstream.settle(db, refundNo, status))) throw actionRefused(`no processing sandbox ${upstream.group} refund ${refundNo}`);
        return { json: { refund: refundNo, status }, text: `${refundNo}: ${status}` };
      };
    },
  };
  return [plan, settle];
}
