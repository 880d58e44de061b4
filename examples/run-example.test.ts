import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../test/dev-server-process';
import { ReceiverPortTaken, startExampleReceiver } from './run-example';

/** A receiver as the examples' are: a program that listens on NOTIFY_PORT, or says why it cannot. */
const listener = [process.execPath, '-e', "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.NOTIFY_PORT))"];

describe('starting an example receiver', () => {
  it('answers once its own receiver listens', async () => {
    const port = await freePort();
    const receiver = await startExampleReceiver(listener, port, process.env);
    try {
      expect(await (await fetch(receiver.url)).text()).toBe('ok');
    } finally {
      receiver.stop();
    }
  });

  it('says the port was taken when another process holds it, though that process answers on it', async () => {
    const other = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => other.listen(0, resolve));
    const { port } = other.address() as net.AddressInfo;
    try {
      await expect(startExampleReceiver(listener, port, process.env)).rejects.toBeInstanceOf(ReceiverPortTaken);
    } finally {
      other.close();
    }
  });
});
