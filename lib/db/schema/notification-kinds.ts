/**
 * What a notice to the merchant is about (notifications.kind). A payment notice is built from the order when it is
 * sent and goes to the order's notifyUrl; every other kind carries its own form and goes only to the URL its event
 * named, so that a payment handler that reads every notice as "paid" never receives one.
 * Beside the table, not in lib/notifications/: the notifications_kind_check constraint lists them (a new kind is a
 * generated migration), and the schema imports nothing above lib/db/.
 */
export const NOTIFICATION_KINDS = ['payment', 'refund', 'closed', 'expired'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
