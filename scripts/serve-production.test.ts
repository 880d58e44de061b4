import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runScript } from '../test/run-script';
import { linesNotLogEntries } from '../test/log-lines';

/**
 * `npm start` (scripts/serve.ts in production) as an operator starts it: what it refuses before serving anything, and
 * what it says when the sandbox is mounted. Runs until it prints `until` or exits (no production build is needed to
 * reach these points), then is stopped.
 */
function startProduction(env: Record<string, string | undefined>, until?: RegExp): Promise<{ exitCode: number | null; output: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: '3371', HOST: '127.0.0.1', WORKERS: 'off' };
  for (const name of ['NODE_ENV', 'APP_ENCRYPTION_KEY', 'NEXTAUTH_SECRET', 'AUTH_SECRET', 'PUBLIC_BASE_URL', 'SANDBOX_ENABLED', 'VITEST']) delete childEnv[name];
  for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
  return runScript('scripts/serve.ts', { env: childEnv, until });
}

const secrets = { APP_ENCRYPTION_KEY: randomBytes(32).toString('hex'), NEXTAUTH_SECRET: randomBytes(32).toString('base64url') };

describe('npm start refuses a production it cannot run safely', { timeout: 90_000 }, () => {
  it('without PUBLIC_BASE_URL, or with an http one unless ALLOW_HTTP_PUBLIC_BASE_URL=true', async () => {
    const missing = await startProduction(secrets);
    expect(missing.exitCode).not.toBe(0);
    expect(missing.output).toMatch(/PUBLIC_BASE_URL: is required in production/);
    expect(linesNotLogEntries(missing.output)).toEqual([]); // a refusal is a JSON log line like every other
    const http = await startProduction({ ...secrets, PUBLIC_BASE_URL: 'http://pay.example.com' });
    expect(http.exitCode).not.toBe(0);
    expect(http.output).toMatch(/PUBLIC_BASE_URL: must be https in production/);
    const allowed = await startProduction({ ...secrets, PUBLIC_BASE_URL: 'http://pay.example.com', ALLOW_HTTP_PUBLIC_BASE_URL: 'true' }, /database: DATABASE_URL/);
    expect(allowed.output).not.toMatch(/PUBLIC_BASE_URL:/);
    expect(allowed.output).toMatch(/database: DATABASE_URL/);
  });

  it('without APP_ENCRYPTION_KEY or NEXTAUTH_SECRET', async () => {
    const noKey = await startProduction({ PUBLIC_BASE_URL: 'https://pay.example.com', NEXTAUTH_SECRET: secrets.NEXTAUTH_SECRET });
    expect(noKey.exitCode).not.toBe(0);
    expect(noKey.output).toMatch(/APP_ENCRYPTION_KEY: is required with DATABASE_URL/);
    const noSession = await startProduction({ PUBLIC_BASE_URL: 'https://pay.example.com', APP_ENCRYPTION_KEY: secrets.APP_ENCRYPTION_KEY });
    expect(noSession.exitCode).not.toBe(0);
    expect(noSession.output).toMatch(/NEXTAUTH_SECRET: is required with DATABASE_URL/);
  });

  it('with a bearer token setting that breaks its rule (too short, or characters a Bearer header cannot carry), naming the setting and the rule', async () => {
    const site = { ...secrets, PUBLIC_BASE_URL: 'https://pay.example.com' };
    const short = await startProduction({ ...site, HEALTH_DETAILS_TOKEN: 'k'.repeat(28) });
    expect(short.exitCode).not.toBe(0);
    expect(short.output).toMatch(/refused to start: HEALTH_DETAILS_TOKEN: must be at least 32 characters of A–Z, a–z, 0–9 and - \. _ ~ \+ \/ .*\(it has 28\)/);
    const spaced = await startProduction({ ...site, HEALTH_DETAILS_TOKEN: `${'k'.repeat(20)} ${'k'.repeat(20)}` });
    expect(spaced.exitCode).not.toBe(0);
    expect(spaced.output).toMatch(/refused to start: HEALTH_DETAILS_TOKEN: must be .*\(it has other characters\)/);
    const fine = await startProduction({ ...site, HEALTH_DETAILS_TOKEN: randomBytes(32).toString('base64') }, /database: DATABASE_URL/);
    expect(fine.output).not.toMatch(/HEALTH_DETAILS_TOKEN/);
  });

  it('with a mail server named but no sender, or a mail URL that is not smtp(s), naming the setting (never its password)', async () => {
    const site = { ...secrets, PUBLIC_BASE_URL: 'https://pay.example.com' };
    const noSender = await startProduction({ ...site, SMTP_URL: 'smtps://mailer:s3cret-pass@mail.example.com:465' });
    expect(noSender.exitCode).not.toBe(0);
    expect(noSender.output).toMatch(/refused to start: SMTP_FROM: is required when SMTP_URL is set/);
    const http = await startProduction({ ...site, SMTP_URL: 'http://mailer:s3cret-pass@mail.example.com', SMTP_FROM: 'no-reply@example.com' });
    expect(http.output).toMatch(/refused to start: SMTP_URL: must start with smtp:\/\/ or smtps:\/\//);
    expect(`${noSender.output}${http.output}`).not.toContain('s3cret-pass');
    const fine = await startProduction({ ...site, SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_FROM: 'Payments <no-reply@example.com>' }, /mail: team invitations/);
    expect(fine.output).toMatch(/mail: team invitations e-mailed through 127\.0\.0\.1 from Payments <no-reply@example\.com>/);
  });

  it('with a token or secret too easy to guess (the probe\'s 40 × a), naming the setting', async () => {
    const site = { ...secrets, PUBLIC_BASE_URL: 'https://pay.example.com' };
    for (const [name, value] of [
      ['HEALTH_DETAILS_TOKEN', 'a'.repeat(40)],
      ['METRICS_TOKEN', 'abcd'.repeat(10)],
      ['NEXTAUTH_SECRET', 'x'.repeat(40)],
      ['APP_ENCRYPTION_KEY', 'a'.repeat(64)],
    ] as const) {
      const run = await startProduction({ ...site, [name]: value });
      expect(run.exitCode, name).not.toBe(0);
      expect(run.output).toMatch(new RegExp(`refused to start: ${name}: is too easy to guess \\(about \\d+ bits of entropy in its characters, at least \\d+ needed\\)`));
      expect(run.output).not.toContain(value);
    }
    const random = await startProduction({ ...site, HEALTH_DETAILS_TOKEN: randomBytes(16).toString('hex'), METRICS_TOKEN: randomBytes(24).toString('base64url') }, /database: DATABASE_URL/);
    expect(random.output).not.toMatch(/TOKEN/);
  });

  it('says loudly at start that the sandbox is mounted in production', async () => {
    const run = await startProduction({ ...secrets, PUBLIC_BASE_URL: 'https://pay.example.com', SANDBOX_ENABLED: 'true' }, /SANDBOX MOUNTED IN PRODUCTION/);
    expect(run.output).toMatch(/!!! SANDBOX MOUNTED IN PRODUCTION \(SANDBOX_ENABLED=true\)/);
    const quiet = await startProduction({ ...secrets, PUBLIC_BASE_URL: 'https://pay.example.com' }, /database: DATABASE_URL/);
    expect(quiet.output).not.toMatch(/SANDBOX MOUNTED/);
  });
});
