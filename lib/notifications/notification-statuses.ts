/** A notification's delivery states (notifications.status), apart from the queries so the CLI can list them cheaply. */
export const NOTIFICATION_STATUSES = ['pending', 'delivered', 'failed', 'superseded'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];
