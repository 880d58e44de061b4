/**
 * The shared tables. A table only one channel or its simulator uses lives in that channel's folder (a schema.ts under
 * lib/channels/<x>/ or sandbox/<x>/, which drizzle.config.ts also reads) and is imported from there; none is read
 * through the relational db.query API, so lib/db/client.ts needs only these.
 */
export * from './merchants';
export * from './receiving-addresses';
export * from './platform-settings';
export * from './orders';
export * from './accounts';
export * from './account-sign-in-networks';
export * from './account-second-factors';
export * from './account-passkeys';
export * from './account-sessions';
export * from './team-invitations';
export * from './notifications';
export * from './audit-log';
export * from './upstream-orders';
export * from './upstream-callbacks';
export * from './sign-in-throttle';
export * from './upstream-credentials';
export * from './job-runs';
export * from './attention-dismissals';
export * from './merchant-branding';
export * from './refunds';
export * from './reconciliation';
