import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../test/run-command';
import { repositoryRoot } from '../cli/run-admin-for-tests';

/**
 * The probe's host had a public address of its own (192.0.2.2 there, a documentation address, now refused by range)
 * and the notifier delivered to it: anything listening on the host, the service itself on 0.0.0.0 among them, was
 * reachable that way. Here the host is a network namespace of its own whose loopback interface also carries an address from no
 * special-purpose range; the service runs inside it (test/own-address-bed.ts) on PostgreSQL's Unix socket.
 */
const OWN_ADDRESS = '93.184.215.14';

function canMakeNetworkNamespaces(): boolean {
  try {
    execFileSync('unshare', ['--net', '--', 'ip', 'addr', 'add', '198.18.0.1/32', 'dev', 'lo'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The test database, reached from inside the namespace (which has no route to this one's loopback) through a Unix
 * socket that this process forwards to the database's TCP port: a socket file is not in any network namespace.
 */
async function socketDatabaseUrl(): Promise<{ url: string; close: () => void }> {
  const url = new URL(process.env.DATABASE_URL!);
  const directory = mkdtempSync(path.join(os.tmpdir(), 'own-address-'));
  const port = url.port || '5432';
  const forwarder = net.createServer((socket) => {
    const upstream = net.connect(Number(port), url.hostname);
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => forwarder.listen(path.join(directory, `.s.PGSQL.${port}`), resolve));
  const password = url.password ? `:${url.password}` : '';
  return {
    url: `postgresql://${url.username || 'postgres'}${password}@/${url.pathname.slice(1)}?host=${directory}&port=${port}`,
    close: () => {
      forwarder.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

describe("the notifier and the submit refuse this host's own interface addresses", () => {
  it.skipIf(!canMakeNetworkNamespaces())(`a notifyUrl on ${OWN_ADDRESS}, an address of this host, is refused at submit and at delivery`, { timeout: 60_000 }, async () => {
    const setUp = `ip link set lo up && ip addr add ${OWN_ADDRESS}/32 dev lo`;
    const database = await socketDatabaseUrl();
    const { exitCode, output } = await runCommand('unshare', ['--net', '--', 'sh', '-c', `${setUp} && exec "$0" --import tsx test/own-address-bed.ts`, process.execPath], {
      cwd: repositoryRoot,
      env: { ...process.env, DATABASE_URL: database.url, OWN_ADDRESS, NODE_ENV: 'test' },
      timeoutMs: 50_000,
    }).finally(database.close);
    expect(exitCode, output).toBe(0);
    const result = JSON.parse(output.trim().split('\n').at(-1)!);
    expect(result.reachable).toBe('success');
    expect(result.submitted).toMatchObject({ code: 1001, data: null });
    expect(result.submitted.message).toBe(`notifyUrl must be reachable from the internet: destination ${OWN_ADDRESS} is not a public address (this host's own address)`);
    expect(result.attempts).toEqual([{ outcome: 'rejected', error: `refused: destination ${OWN_ADDRESS} is not a public address (this host's own address)` }]);
    expect(result.received).toEqual([]);
  });
});
