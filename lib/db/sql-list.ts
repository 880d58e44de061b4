import { sql } from 'drizzle-orm';

/** A CHECK constraint's allowed values as SQL literals: fixed words of the code (names, statuses), never input. */
export const sqlList = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));
