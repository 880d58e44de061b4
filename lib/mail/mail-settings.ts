import { envSetting } from '../config/env-setting';
import { StartupRefusal } from '../config/startup-refusal';

/** Where the service sends its e-mail (today: team invitations), when an operator has configured a mail server. */
export interface MailSettings {
  /** smtp://[user:password@]host[:port] (STARTTLS when the server offers it) or smtps://… (TLS from the start). */
  url: string;
  /** The sender, as the recipient reads it: `Payments <no-reply@example.com>`. */
  from: string;
}

/**
 * The mail server from SMTP_URL and SMTP_FROM, or undefined when SMTP_URL is unset: then nothing is e-mailed and the
 * back office shows each invitation link to pass on. A half or wrong setting stops the process naming it (the URL's
 * password is never repeated).
 */
export function mailSettings(env: NodeJS.ProcessEnv = process.env): MailSettings | undefined {
  const url = envSetting(env, 'SMTP_URL');
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupRefusal('SMTP_URL', 'is not a URL: give smtp://[user:password@]host[:port] (STARTTLS) or smtps://[user:password@]host[:port] (TLS)');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new StartupRefusal('SMTP_URL', `must start with smtp:// or smtps:// (got ${parsed.protocol}//…)`);
  if (parsed.hostname === '') throw new StartupRefusal('SMTP_URL', 'names no host');
  const from = envSetting(env, 'SMTP_FROM');
  if (!from) throw new StartupRefusal('SMTP_FROM', 'is required when SMTP_URL is set: the address the e-mails come from, e.g. "Payments <no-reply@example.com>"');
  if (!/^[^\s<>@]+@[^\s<>@]+$|<[^\s<>@]+@[^\s<>@]+>$/.test(from)) throw new StartupRefusal('SMTP_FROM', `is not an e-mail address (got ${from})`);
  return { url, from };
}
