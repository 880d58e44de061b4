import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runNpmScript, startDevServer, type DevServerProcess } from '../test/dev-server-process';
import { contractSignature } from '../test/beds/contract-signer';
import { startMerchantReceiver } from '../test/beds/merchant-receiver';
import { makePrivateClone } from '../test/private-clone';

/**
 * `npm run dev` stopped with Ctrl-C and started again, in a fresh clone, as a newcomer would: every process stops within seconds, the next start is not refused, and a page opened right after the restart
 * loads once instead of reloading in a loop.
 */
let clone: Awaited<ReturnType<typeof makePrivateClone>>;
let browser: Browser;
let running: DevServerProcess | undefined;
let firstRunBanner = '';
const dataDir = () => path.join(clone.root, '.data', 'pg');

beforeAll(async () => {
  // A clone every user can reach, so the embedded database stays in ./.data/pg, inside the tree Next.js watches.
  clone = await makePrivateClone({ parentMode: 0o755 });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
}, 120_000);

// A failed test must not leave its server running under the next test's start (the second one is refused then).
afterEach(async () => {
  await running?.interrupt(15_000).catch(() => running?.kill());
  running = undefined;
}, 30_000);

afterAll(async () => {
  await browser?.close();
  const realDataDir = await fs.realpath(dataDir()).catch(() => undefined);
  if (realDataDir) await fs.rm(realDataDir, { recursive: true, force: true });
  await clone?.remove();
}, 60_000);

/** An address of this machine other than 127.0.0.1: a network interface's, else another loopback address. */
function otherAddressOfThisMachine(): string {
  const external = Object.values(os.networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal);
  return external?.address ?? '127.0.0.2'; // Linux answers all of 127/8; a server bound to 127.0.0.1 only does not
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 3_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Opens a page and counts, for `watchMs`, the full loads and Fast Refresh rebuilds the browser went through. */
async function watchPage(url: string, watchMs: number): Promise<{ loads: number; rebuilds: number; status?: number }> {
  const page = await browser.newPage();
  let loads = 0;
  let rebuilds = 0;
  page.on('load', () => (loads += 1));
  page.on('console', (message) => {
    if (message.text().includes('[Fast Refresh] rebuilding')) rebuilds += 1;
  });
  try {
    const response = await page.goto(url, { timeout: 150_000 });
    await page.waitForTimeout(watchMs);
    return { loads, rebuilds, status: response?.status() };
  } finally {
    await page.close();
  }
}

/** How many distinct processes Next.js spawned to read static params (its static-paths worker) while `work` ran. */
async function staticParamsProcessesDuring(server: DevServerProcess, work: () => Promise<void>): Promise<number> {
  const seen = new Set<number>();
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      for (const { pid, commandLine } of server.groupProcesses()) if (commandLine.includes('jest-worker/processChild')) seen.add(pid);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    await work();
  } finally {
    watching = false;
    await watcher;
  }
  return seen.size;
}

describe('npm run dev, stopped with Ctrl-C and started again', () => {
  it('stops every process within seconds, even with a page loading, and starts again, on 127.0.0.1 only', { timeout: 420_000 }, async () => {
    running = startDevServer(clone.root, await freePort());
    await running.waitFor('ready:', 180_000);
    const base = `http://localhost:${running.port}`;
    for (const line of [`merchant portal    ${base}/portal`, `operator console   ${base}/operator`, `checkout pages     ${base}/pay/<token>`]) {
      expect(running.output()).toContain(line);
    }
    expect(running.output()).toMatch(/notifications +a notifyUrl on 127\.0\.0\.1 .* is allowed here/);
    firstRunBanner = running.output();
    const loading = fetch(`http://localhost:${running.port}/portal/sign-in`).catch(() => undefined); // compiling now
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stoppedIn = await running.interrupt(15_000);
    await loading;
    expect(stoppedIn).toBeLessThan(15_000);
    await expect(fs.access(path.join(dataDir(), 'postmaster.pid'))).rejects.toThrow(); // the database stopped too

    running = startDevServer(clone.root, await freePort());
    await running.waitFor('ready:', 180_000);
    // Every simulator route the start compiles tells open pages it is rebuilding; only the page's own count here.
    await running.waitFor('sandbox simulators:', 180_000);
    const seen = await watchPage(`http://localhost:${running.port}/portal/sign-in`, 10_000);
    expect(seen.status).toBe(200);
    // The database writes its files under ./.data while the page compiles: a stylesheet that watched the whole tree
    // for class names rebuilt on each write and the page reloaded several times a second, dozens in the 10 s watched.
    // The page's own first compiles (its chunks, the icon) may announce one or two.
    expect(seen.loads).toBe(1);
    expect(seen.rebuilds).toBeLessThanOrEqual(2);

    // Next.js's development server read a dynamic route's static params in a process it spawned on every request
    // (about a second of CPU each): the sandbox TRON API the chain watcher polls kept a core busy. Once per route now,
    // and this route was read when the start warmed the simulators (and the watcher polls it).
    const spawned = await staticParamsProcessesDuring(running, async () => {
      for (let request = 0; request < 5; request += 1) {
        await fetch(`http://localhost:${running!.port}/sandbox/tron/wallet/getnowblock`, { method: 'POST' }).then((response) => response.arrayBuffer());
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
    });
    expect(spawned, 'processes spawned to read static params over five requests to a dynamic route already read').toBe(0);

    // Without HOST the development server is not for the network: 127.0.0.1 only. And the portal works at
    // http://127.0.0.1 too (the host development prints): served to an origin it refuses, its scripts never run and
    // the sign-in button (disabled until they have) never becomes usable.
    expect(await connects('127.0.0.1', running.port)).toBe(true);
    expect(await connects(otherAddressOfThisMachine(), running.port)).toBe(false);
    const page = await browser.newPage();
    const refusedOrigins: string[] = [];
    page.on('console', (message) => {
      if (/cross-origin|allowedDevOrigins/i.test(message.text())) refusedOrigins.push(message.text());
    });
    try {
      await page.goto(`http://127.0.0.1:${running.port}/portal/sign-in`);
      // A trial click waits until the button is enabled, and clicks nothing.
      await page.getByRole('button', { name: 'Sign in' }).click({ trial: true, timeout: 60_000 });
      expect(refusedOrigins).toEqual([]);
    } finally {
      await page.close();
    }
    expect(await running.interrupt(15_000)).toBeLessThan(15_000);
    expect(running.output()).not.toContain('Another next dev server');
    running = undefined;
  });
});

describe('npm run dev on a port of its own, with the sandbox CLI and a merchant receiver on loopback', () => {
  it('the first-run merchant pays an ALIPAY order through `npm run sandbox -- alipay pay` and its receiver on 127.0.0.1 is notified', { timeout: 300_000 }, async () => {
    const receiver = await startMerchantReceiver(() => undefined);
    try {
      running = startDevServer(clone.root, await freePort());
      await running.waitFor('ready:', 180_000);
      const base = `http://localhost:${running.port}`;
      // The demo merchant of the first run (the earlier test's start printed it; this start reuses the database).
      let banner = running.output();
      if (!banner.includes('merchant AppSecret')) banner = firstRunBanner;
      const appId = /merchant appId +(\S+)/.exec(banner)?.[1];
      const appSecret = /merchant AppSecret +(\S+)/.exec(banner)?.[1];
      expect(appId && appSecret).toBeTruthy();

      const added = await runNpmScript(clone.root, 'admin', ['credential', 'add', '--app-id', appId!, '--channel', 'ALIPAY', '--sandbox', '--approve', '--enable']);
      expect(added.exitCode, added.stderr).toBe(0);
      const fields = { appId: appId!, merchantOrderNo: `DEV-${Date.now()}`, payType: 'ALIPAY', payMethod: 'web', amount: '6.60', notifyUrl: receiver.url };
      const submitted = await fetch(`${base}/v1/api/open/order/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...fields, signature: contractSignature(fields, appSecret!) }),
      }).then((response) => response.json());
      expect(submitted).toMatchObject({ code: 0 });

      // No PORT and no PUBLIC_BASE_URL in the CLI's environment: it must find the service where it runs.
      const paid = await runNpmScript(clone.root, 'sandbox', ['alipay', 'pay', '--order', submitted.data.platformOrderNo, '--json']);
      expect(paid.exitCode, paid.stderr).toBe(0);
      expect(JSON.parse(paid.stdout)).toMatchObject({ newlyPaid: true, notify: { url: expect.stringContaining(base), acknowledged: true } });

      const deadline = Date.now() + 30_000;
      while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received[0]?.form).toMatchObject({ merchantOrderNo: fields.merchantOrderNo, status: 'PAID', amount: '6.60' });
      expect(receiver.received[0]?.form.signature).toBe(contractSignature(receiver.received[0]!.form, appSecret!));
    } finally {
      await receiver.close(); // the server is stopped by afterEach
    }
  });
});
