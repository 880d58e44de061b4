/**
 * A request that changes something (any method but GET, HEAD and OPTIONS) to the pages, the portal's and the
 * console's server actions and the browser-facing routes must come from this service's own pages: its Origin is the
 * service's (PUBLIC_BASE_URL's, or the one the request was sent to), or, without an Origin, the browser says
 * `Sec-Fetch-Site: same-origin`. Next.js checks a server action's Origin only when there is one, and against
 * X-Forwarded-Host, which a client could send (server/forwarded-headers.ts now removes it unless a trusted proxy
 * sent it); this check does not rest on either.
 *
 * Machine-to-machine requests carry neither header and are judged otherwise: the open API (each request signed with
 * the merchant's AppSecret) and the upstreams' callbacks (signed by the upstream) under /v1/api/, and, where the
 * sandbox is mounted, the simulated upstreams' own APIs, which the channel adapters call as they call the real ones
 * (the paths each channel names, handed in by the server).
 */
const OPEN_API_PATH = /^\/v1\/api\//;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface OriginCheckInput {
  method: string;
  path: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** The origins this service is reached at: PUBLIC_BASE_URL's, and the one this request was addressed to. */
  ownOrigins: readonly string[];
  /** The simulated upstreams' API paths (each channel's sandboxApiPaths): machine to machine, as /v1/api/ is. */
  sandboxApiPaths: readonly RegExp[];
}

/** Why the request is refused as cross-origin, or undefined when it may go on. */
export function crossOriginRefusal(input: OriginCheckInput): string | undefined {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return undefined;
  if (OPEN_API_PATH.test(input.path) || input.sandboxApiPaths.some((pattern) => pattern.test(input.path))) return undefined;
  if (input.origin !== undefined) {
    if (input.ownOrigins.includes(input.origin.toLowerCase())) return undefined;
    return `a ${input.method} from another origin (${JSON.stringify(input.origin.slice(0, 100))}) is refused: only this service's own pages may send it`;
  }
  if (input.secFetchSite === 'same-origin') return undefined;
  return `a ${input.method} without an Origin header (or Sec-Fetch-Site: same-origin) is refused: only this service's own pages may send it`;
}

/** The origin a URL or `scheme://host` text names, lower-case, or undefined when it is none. */
export function originOf(text: string): string | undefined {
  try {
    const origin = new URL(text).origin;
    return origin === 'null' ? undefined : origin.toLowerCase();
  } catch {
    return undefined;
  }
}
