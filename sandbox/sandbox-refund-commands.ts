import type { CliCommand } from '@/lib/cli/command';
import { actionRefused } from '@/lib/errors/domain-error';
import type { Database } from '@/lib/db/client';

/**
 * A simulated upstream's refund controls: `refund-plan --order <no> --plan …` (what the order's next refund meets,
 * each upstream's own plans, or `none`) and `refund-settle --refund <no> [--status …]` (an open refund becomes final,
 * as the upstream would finish it later).
 */
export function sandboxRefundCommands<Plan extends string>(upstream: {
  group: string;
  /** Each plan and what the refund meets under it, as the usage lists it. */
  plans: Readonly<Record<Plan, string>>;
  plan: (db: Database, orderNo: string, plan: Plan | null) => Promise<unknown>;
  settle: (db: Database, refundNo: string, status: string) => Promise<unknown>;
  statuses: readonly string[];
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
  const settle: CliCommand = {
    group: upstream.group,
    action: 'refund-settle',
    summary: 'finish an open (processing or abnormal) refund at the simulator',
    usage: `usage: npm run sandbox -- ${upstream.group} refund-settle --refund <refundNo> [--status ${upstream.statuses.join('|')}] [--json]`,
    options: { refund: { type: 'string' }, status: { type: 'string' } },
    prepare(args) {
      args.expectPositionals();
      const refundNo = args.required('refund').trim();
      const status = args.optional('status') ?? upstream.statuses[0]!;
      if (!upstream.statuses.includes(status)) args.fail(`option --status must be one of ${upstream.statuses.join(', ')}`);
      return async (db) => {
        if (!(await upstream.settle(db, refundNo, status))) throw actionRefused(`no open sandbox ${upstream.group} refund ${refundNo} that can become ${status}`);
        return { json: { refund: refundNo, status }, text: `${refundNo}: ${status}` };
      };
    },
  };
  return [plan, settle];
}
