import { describe, expect, it } from 'vitest';
import { COMMANDS, commandName } from '../lib/cli/registry';
import { parseSingleJsonObject, runAdmin } from '../lib/cli/run-admin-for-tests';

describe('npm run admin', () => {
  it('--help lists every command and exits 0', async () => {
    const run = await runAdmin(['--help']);
    expect(run.exitCode).toBe(0);
    for (const command of COMMANDS) expect(run.stdout).toContain(commandName(command));
    expect(run.stderr).toBe('');
  });

  it('--help loads no package: neither the logger nor the database driver', async () => {
    // The child reports, as it exits, every CommonJS module it loaded (pino, pg and their dependencies are CommonJS).
    const report = `import { createRequire } from 'node:module'; process.on('exit', () => process.stderr.write('loaded:' + JSON.stringify(Object.keys(createRequire('/').cache))));`;
    const run = await runAdmin(['--help'], { env: { ...process.env, NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(report)}` } });
    expect(run.exitCode).toBe(0);
    const loaded = JSON.parse(run.stderr.slice(run.stderr.indexOf('loaded:') + 'loaded:'.length)) as string[];
    expect(loaded.filter((file) => file.includes('/node_modules/'))).toEqual([]);
  });

  it('--help --json prints one JSON object with the commands', async () => {
    const run = await runAdmin(['--help', '--json']);
    expect(run.exitCode).toBe(0);
    const help = parseSingleJsonObject(run.stdout) as { usage: string; commands: { command: string; summary: string }[] };
    expect(help.commands.map((entry) => entry.command)).toEqual(COMMANDS.map(commandName));
  });

  it('prints each command\'s usage with --help, without running it', async () => {
    // A few at a time: every command is a process of its own, and dozens at once on two cores outlast runAdmin's timeout.
    const runs: Awaited<ReturnType<typeof runAdmin>>[] = [];
    for (let start = 0; start < COMMANDS.length; start += 4) {
      runs.push(...(await Promise.all(COMMANDS.slice(start, start + 4).map((command) => runAdmin([command.group, command.action, '--help'])))));
    }
    runs.forEach((run, index) => {
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toContain(`usage: npm run admin -- ${commandName(COMMANDS[index]!)}`);
    });
  }, 240_000);

  it('exits 1 on an unknown command, naming it', async () => {
    const [unknownGroup, unknownAction, none] = await Promise.all([runAdmin(['refund', 'all']), runAdmin(['merchant', 'delete']), runAdmin([])]);
    expect(unknownGroup.exitCode).toBe(1);
    expect(unknownGroup.stderr).toContain('unknown command: refund');
    expect(unknownGroup.stdout).toBe('');
    expect(unknownAction.exitCode).toBe(1);
    expect(unknownAction.stderr).toContain('unknown command: merchant delete');
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain('missing command');
  });

  it('exits 1 on a missing or unknown option, naming it; with --json stdout holds only the error object', async () => {
    const [missing, unknown] = await Promise.all([
      runAdmin(['merchant', 'create', '--name', 'Shop', '--json']),
      runAdmin(['limit', 'show', '--verbose', '--json']),
    ]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('missing option --orders');
    expect(parseSingleJsonObject(missing.stdout)).toEqual({ error: { kind: 'usage', message: 'missing option --orders' } });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('unknown option --verbose');
    expect(parseSingleJsonObject(unknown.stdout)).toEqual({ error: { kind: 'usage', message: 'unknown option --verbose' } });
  });

  it('exits 2 on an unexpected failure (a database that does not exist)', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = '/no_such_database_for_admin_cli';
    const run = await runAdmin(['limit', 'show', '--json'], { env: { ...process.env, DATABASE_URL: url.toString() } });
    expect(run.exitCode).toBe(2);
    expect(parseSingleJsonObject(run.stdout)).toMatchObject({ error: { kind: 'internal' } });
    expect(run.stderr).toContain('no_such_database_for_admin_cli');
  });
});
