export * from './merchants';
export * from './receiving-addresses';
export * from './platform-settings';
export * from './orders';
export * from './accounts';
export * from './notifications';
export * from './audit-log';
export * from './chain';
