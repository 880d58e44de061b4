/**
 * Read-your-writes on a replica: after a person's own write (any POST to the portal or the console: every server
 * action) their browser carries this cookie, "read the primary until T", T a few seconds beyond the
 * replica's max acceptable lag; until then their pages read the primary, so a refund just made or a credential just
 * approved is never missing from the page that follows. The POST's own answer (a server action renders the page it
 * redirects to in the same response) is marked by the header, set by the service's HTTP server, never the client's.
 * A forged cookie can only send its holder's reads to the primary, which is where they go without a replica.
 */
export const READ_PRIMARY_COOKIE = 'read-primary-until';
export const READ_PRIMARY_HEADER = 'x-read-primary';
/** Beyond the max lag: a replica just within it has the write by the time the cookie ends. */
export const READ_PRIMARY_MARGIN_SECONDS = 5;

/** How long, in seconds, a write keeps its author's reads on the primary. */
export function readPrimarySeconds(maxLagSeconds: number): number {
  return maxLagSeconds + READ_PRIMARY_MARGIN_SECONDS;
}

/** Whether a request must read the primary: the server marked it as a write, or its cookie's time has not passed. */
export function mustReadPrimary(input: { header?: string | null; cookie?: string | null; now: number }): boolean {
  if (input.header === '1') return true;
  const until = Number(input.cookie);
  return Number.isFinite(until) && until > input.now;
}

/** The back office's pages, whose POSTs are writes by the signed-in person. */
export function isBackOfficePath(path: string): boolean {
  return ['/portal', '/operator'].some((root) => path === root || path.startsWith(`${root}/`));
}
