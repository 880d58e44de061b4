/**
 * The merchant acknowledges with HTTP 2xx and a body of `success`, `ok`, or JSON whose `code` is 0.
 * Surrounding whitespace is tolerated (a trailing newline from `echo` is common); case is not: `SUCCESS` is no ack.
 */
export function isAcknowledged(httpStatus: number, body: string): boolean {
  if (httpStatus < 200 || httpStatus > 299) return false;
  const text = body.trim();
  if (text === 'success' || text === 'ok') return true;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) && (parsed as { code?: unknown }).code === 0;
  } catch {
    return false;
  }
}
