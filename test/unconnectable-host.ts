import { spawn } from 'node:child_process';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback port nothing listens on: connections to it are refused at once. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A loopback port where a TCP connection never completes, like a black-holed host: a process listens with a
 * backlog of 1 and never accepts (its event loop is blocked); once two connections fill the queue, the kernel
 * drops further handshakes.
 */
export async function startUnconnectableHost() {
  const listener = `const s = require('node:net').createServer();
    s.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
      process.stdout.write(s.address().port + '\\n');
      setTimeout(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0), 50);
    });`;
  const child = spawn(process.execPath, ['-e', listener], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
  await new Promise((resolve) => setTimeout(resolve, 150));
  const fillers = [net.connect(port, '127.0.0.1'), net.connect(port, '127.0.0.1')];
  await Promise.all(fillers.map((socket) => new Promise((resolve) => socket.once('connect', resolve))));
  return {
    port,
    stop() {
      fillers.forEach((socket) => socket.destroy());
      child.kill('SIGKILL');
    },
  };
}
