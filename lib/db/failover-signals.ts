/** 25006 read_only_sql_transaction: the server this session is on no longer accepts writes (a demoted primary, a standby). */
export const READ_ONLY_SQL_TRANSACTION = '25006';

/**
 * SQLSTATEs that say this server is not (or no longer) the primary to write to: read-only, class 08 (connection
 * exception), 57P01–57P03 (shutting down, crashed, starting up). After one the primary is looked for again.
 */
export function signalsLostPrimary(code: unknown): boolean {
  return typeof code === 'string' && (code === READ_ONLY_SQL_TRANSACTION || /^(08...|57P0[123])$/.test(code));
}
