/**
 * Whether a statement failed on a unique key (SQLSTATE 23505), of the named constraint when one is given. Drizzle
 * wraps node-postgres's error; the code is on its cause.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const cause = (error as { cause?: unknown })?.cause ?? error;
  const { code, constraint: violated } = (cause ?? {}) as { code?: unknown; constraint?: unknown };
  return code === '23505' && (constraint === undefined || violated === constraint);
}
