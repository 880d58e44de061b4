import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type net from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** Where the staging service's sink keeps each e-mail it received, one JSON file apiece, for the specs to read. */
export const MAIL_DIR = path.resolve(process.env.E2E_MAIL_DIR ?? '.data/e2e-mail');

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
}

/**
 * The staging service's mail server: a real SMTP server (the smtp-server package) on a loopback port, as an
 * operator's relay would be, that parses each message (mailparser) into MAIL_DIR. Emptied at each start.
 */
export async function startMailSink(): Promise<{ settings: Record<string, string>; close(): Promise<void> }> {
  rmSync(MAIL_DIR, { recursive: true, force: true });
  mkdirSync(MAIL_DIR, { recursive: true });
  let sequence = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const received: ReceivedMail = { to: session.envelope.rcptTo.map((rcpt) => rcpt.address), from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', subject: mail.subject ?? '', text: mail.text ?? '' };
          writeFileSync(path.join(MAIL_DIR, `${Date.now()}-${(sequence += 1)}.json`), JSON.stringify(received));
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = (server as unknown as { server: net.Server }).server.address() as net.AddressInfo;
  return { settings: { SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: 'Payments staging <no-reply@staging.example>' }, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The e-mails the sink received for `address`, oldest first. */
export function mailTo(address: string): ReceivedMail[] {
  return readdirSync(MAIL_DIR)
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(MAIL_DIR, file), 'utf8')) as ReceivedMail)
    .filter((mail) => mail.to.some((to) => to.toLowerCase() === address.toLowerCase()));
}
