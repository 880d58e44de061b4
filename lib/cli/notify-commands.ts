import { NOTIFICATION_STATUSES, type NotificationStatus } from '../notifications/notification-statuses';
import type { CliCommand } from './command';
import { cliActor } from './operator';

const resendUsage = `usage: npm run admin -- notify resend --app-id <appId> --merchant-order-no <no> [--json]

Starts a new delivery cycle of a paid order's notification (attempts from the first again). Earlier cycles and
their attempts stay in the history; a cycle still retrying is superseded.

  --app-id <appId>             the merchant's AppId
  --merchant-order-no <no>     the merchant's order number
  --json                       print one JSON object: {"orderNo","merchantOrderNo","notificationId","cycle"}`;

export const notifyResend: CliCommand = {
  group: 'notify',
  action: 'resend',
  summary: "start a new delivery cycle of a paid order's notification",
  usage: resendUsage,
  options: { 'app-id': { type: 'string' }, 'merchant-order-no': { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const appId = args.required('app-id');
    const merchantOrderNo = args.required('merchant-order-no');
    return async (db) => {
      const { resendNotification } = await import('../orders/resend-notification');
      const resent = await resendNotification(db, { appId, merchantOrderNo, actor: cliActor(), now: new Date() });
      return { json: { ...resent }, text: `notification cycle ${resent.cycle} of order ${resent.orderNo} queued (#${resent.notificationId})` };
    };
  },
};

const listUsage = `usage: npm run admin -- notify list --app-id <appId> [--status ${NOTIFICATION_STATUSES.join('|')}] [--json]

Lists a merchant's notifications, newest first (at most 100).

  --app-id <appId>     the merchant's AppId
  --status <status>    only those in this status
  --json               print one JSON object: {"notifications":[{"id","orderNo","merchantOrderNo","channel","cycle","status","attempts","nextAttemptAt","lastError","deliveredAt","failedAt"}]}`;

export const notifyList: CliCommand = {
  group: 'notify',
  action: 'list',
  summary: "list a merchant's notifications and their delivery state",
  usage: listUsage,
  options: { 'app-id': { type: 'string' }, status: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const appId = args.required('app-id');
    const status = args.optional('status');
    if (status !== undefined && !NOTIFICATION_STATUSES.includes(status as NotificationStatus)) {
      args.fail(`option --status must be one of ${NOTIFICATION_STATUSES.join(', ')}`);
    }
    return async (db) => {
      const { listNotifications } = await import('../notifications/list-notifications');
      const rows = await listNotifications(db, { appId, status: status as NotificationStatus | undefined });
      const notifications = rows.map((row) => ({
        ...row,
        nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
        deliveredAt: row.deliveredAt?.toISOString() ?? null,
        failedAt: row.failedAt?.toISOString() ?? null,
      }));
      const text =
        notifications.length === 0
          ? 'no notifications'
          : notifications
              .map((row) => `#${row.id} ${row.orderNo} ${row.merchantOrderNo} cycle ${row.cycle} ${row.status} after ${row.attempts} attempt(s)${row.lastError ? ` — ${row.lastError}` : ''}`)
              .join('\n');
      return { json: { notifications }, text };
    };
  },
};

export const notifyCommands: CliCommand[] = [notifyResend, notifyList];
