import net from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { StartupRefusal } from '../config/startup-refusal';
import { metrics } from '../observability/metrics';
import { invitationMail } from './invitation-mail';
import { mailSettings } from './mail-settings';
import { sendMail } from './send-mail';

/** A real SMTP server on a loopback port (the smtp-server package: the protocol as mail servers speak it). */
async function smtpServer(options: { refuseRecipient?: boolean } = {}) {
  const received: Array<{ from: string; to: string[]; raw: Buffer }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (options.refuseRecipient) return callback(Object.assign(new Error('550 5.1.1 mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = (server as unknown as { server: net.Server }).server.address() as net.AddressInfo;
  stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `smtp://127.0.0.1:${port}`, received };
}

const stops: Array<() => Promise<void>> = [];
const env = (values: Record<string, string>) => values as NodeJS.ProcessEnv;
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

const mailCount = async (outcome: string) => (await metrics().mail.get()).values.find((value) => value.labels.outcome === outcome && value.labels.kind === 'team_invitation')?.value ?? 0;

const invitation = (link: string) =>
  invitationMail({ to: 'new.member@example.com', inviter: 'owner@shop.example', merchantName: 'Tea House', role: 'finance', link, expiresAt: new Date('2026-12-08T10:00:00Z'), timeZone: 'Asia/Shanghai' });

describe('e-mail', () => {
  it('sends an invitation in Chinese and English with its link, through a real SMTP server', async () => {
    const server = await smtpServer();
    const link = 'https://pay.example.com/portal/invite/AbC-123_xyz';
    const sentBefore = await mailCount('sent');
    expect(await sendMail({ url: server.url, from: 'Payments <no-reply@example.com>' }, invitation(link), 'team_invitation')).toBe('sent');
    expect(server.received).toHaveLength(1);
    expect(server.received[0]).toMatchObject({ from: 'no-reply@example.com', to: ['new.member@example.com'] });
    const mail = await simpleParser(server.received[0]!.raw);
    expect(mail.subject).toBe('owner@shop.example 邀请您加入 Tea House 的团队 / owner@shop.example invites you to the team of Tea House');
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('以「财务」身份加入');
    expect(mail.text).toContain('as Finance.');
    // The merchant's time zone: 10:00 UTC is 18:00 in Shanghai.
    expect(mail.text).toContain('2026-12-08 18:00');
    expect(await mailCount('sent')).toBe(sentBefore + 1);
  });

  it('fails, counted and logged, when the server refuses the recipient, is not there, or never answers: within its deadline', async () => {
    const failedBefore = await mailCount('failed');
    const refusing = await smtpServer({ refuseRecipient: true });
    expect(await sendMail({ url: refusing.url, from: 'no-reply@example.com' }, invitation('https://x.example/i'), 'team_invitation')).toBe('failed');
    expect(refusing.received).toHaveLength(0);

    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await sendMail({ url: `smtp://127.0.0.1:${closedPort}`, from: 'no-reply@example.com' }, invitation('https://x.example/i'), 'team_invitation')).toBe('failed');

    // A server that takes the connection and never greets: the greeting deadline ends it.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    stops.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const started = Date.now();
    const deadlines = { connectionTimeout: 1_000, greetingTimeout: 800, socketTimeout: 1_000, wholeMs: 3_000 };
    expect(await sendMail({ url: `smtp://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, from: 'no-reply@example.com' }, invitation('https://x.example/i'), 'team_invitation', deadlines)).toBe('failed');
    expect(Date.now() - started).toBeLessThan(3_500);
    expect(await mailCount('failed')).toBe(failedBefore + 3);
  });

  it('is off without SMTP_URL; a half or wrong setting is refused naming it, never repeating its password', () => {
    expect(mailSettings(env({}))).toBeUndefined();
    expect(mailSettings(env({ SMTP_URL: '  ' }))).toBeUndefined();
    expect(mailSettings(env({ SMTP_URL: 'smtps://u:p@mail.example.com:465', SMTP_FROM: 'no-reply@example.com' }))).toEqual({ url: 'smtps://u:p@mail.example.com:465', from: 'no-reply@example.com' });
    const refusal = (values: Record<string, string>) => {
      try {
        mailSettings(env(values));
      } catch (error) {
        return error as StartupRefusal;
      }
      throw new Error('not refused');
    };
    expect(refusal({ SMTP_URL: 'smtp://u:secret@mail.example.com' })).toMatchObject({ setting: 'SMTP_FROM' });
    expect(refusal({ SMTP_URL: 'smtp://u:secret@mail.example.com', SMTP_FROM: 'nobody' })).toMatchObject({ setting: 'SMTP_FROM' });
    const wrongScheme = refusal({ SMTP_URL: 'https://u:secret@mail.example.com', SMTP_FROM: 'no-reply@example.com' });
    expect(wrongScheme).toMatchObject({ setting: 'SMTP_URL' });
    expect(wrongScheme.message).not.toContain('secret');
    expect(refusal({ SMTP_URL: 'not a url', SMTP_FROM: 'no-reply@example.com' })).toMatchObject({ setting: 'SMTP_URL' });
  });
});
