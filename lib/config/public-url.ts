import { envSetting } from './env-setting';
import { StartupRefusal } from './startup-refusal';

/**
 * The production web process needs the address payers and merchants reach it at (pay links, upstream callbacks,
 * notifications): PUBLIC_BASE_URL, https, since session cookies are Secure only then. A closed network or a test may
 * run on http with ALLOW_HTTP_PUBLIC_BASE_URL=true, said out loud.
 */
export function checkPublicBaseUrl(env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_ENV !== 'production') return;
  const configured = envSetting(env, 'PUBLIC_BASE_URL');
  if (!configured) {
    throw new StartupRefusal('PUBLIC_BASE_URL', 'is required in production: the https address payers, merchants and upstreams reach this service at');
  }
  let url: URL;
  try {
    url = new URL(configured);
  } catch {
    throw new StartupRefusal('PUBLIC_BASE_URL', `is not a URL: ${configured}`);
  }
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && env.ALLOW_HTTP_PUBLIC_BASE_URL === 'true') return;
  throw new StartupRefusal(
    'PUBLIC_BASE_URL',
    `must be https in production (sign-in cookies are Secure only then), got ${configured}; set ALLOW_HTTP_PUBLIC_BASE_URL=true to run on http anyway`,
  );
}
