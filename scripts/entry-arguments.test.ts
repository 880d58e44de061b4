import { describe, expect, it } from 'vitest';
import { runScript } from '../test/run-script';

/**
 * The entry points that take no arguments (`npm run worker`, `npm run db:migrate`, `npm start`), as an operator types
 * them: `--help` answers with the usage and starts nothing, a mistyped argument is refused by name. Their database is
 * a port nothing listens on: a command that went on to start would fail on it instead of exiting 0.
 */
const ENTRY_POINTS = [
  { script: 'scripts/worker.ts', usage: 'usage: npm run worker' },
  { script: 'scripts/migrate.ts', usage: 'usage: npm run db:migrate' },
  { script: 'scripts/serve.ts', usage: 'usage: npm start' },
] as const;

const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/unreachable' };

describe.each(ENTRY_POINTS)('$script', ({ script, usage }) => {
  it('answers --help with its usage and exits 0 before starting anything', async () => {
    const run = await runScript(script, { env, args: ['--help'] });
    expect(run.exitCode).toBe(0);
    expect(run.output.startsWith(usage)).toBe(true);
    expect(run.output).not.toMatch(/ECONNREFUSED|migrations applied|running|listening/);
  });

  it.each([
    [['--hepl'], 'error: unknown option --hepl'],
    [['--json'], 'error: unknown option --json'],
    [['now'], 'error: unexpected argument: now'],
    [['--help=1'], 'error: option --help takes no value'],
  ])('refuses %j, naming it', async (args, message) => {
    const run = await runScript(script, { env, args });
    expect(run.exitCode).toBe(1);
    expect(run.output).toContain(message);
    expect(run.output).toContain(usage);
    expect(run.output).not.toMatch(/ECONNREFUSED|migrations applied|running|listening/);
  });
});
