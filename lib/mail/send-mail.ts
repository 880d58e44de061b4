import nodemailer from 'nodemailer';
import { log } from '../observability/logger';
import { metrics } from '../observability/metrics';
import type { MailSettings } from './mail-settings';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Each step of the SMTP conversation, and the whole of it: a mail server that hangs never holds the request. */
export const MAIL_DEADLINES = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 15_000, wholeMs: 30_000 };

/**
 * Sends one e-mail through the configured server: 'sent' once the server accepted it for delivery, 'failed' when it
 * refused, could not be reached or ran past a deadline (logged with the kind and the reason, never the server's
 * password; counted in payment_mail_total). The caller decides what a failure means: an invitation stays valid.
 */
export async function sendMail(settings: MailSettings, message: MailMessage, kind: string, deadlines = MAIL_DEADLINES): Promise<'sent' | 'failed'> {
  const transport = nodemailer.createTransport({ url: settings.url, connectionTimeout: deadlines.connectionTimeout, greetingTimeout: deadlines.greetingTimeout, socketTimeout: deadlines.socketTimeout });
  let timer: NodeJS.Timeout | undefined;
  try {
    const overDeadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${deadlines.wholeMs} ms`)), deadlines.wholeMs);
    });
    await Promise.race([transport.sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text }), overDeadline]);
    metrics().mail.inc({ kind, outcome: 'sent' });
    return 'sent';
  } catch (error) {
    const { hostname, port } = new URL(settings.url);
    log().warn({ component: 'mail', kind, server: `${hostname}:${port}` }, `e-mail not sent: ${(error as Error).message}`);
    metrics().mail.inc({ kind, outcome: 'failed' });
    return 'failed';
  } finally {
    clearTimeout(timer);
    transport.close();
  }
}
