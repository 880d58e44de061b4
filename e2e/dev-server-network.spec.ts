import net from 'node:net';
import os from 'node:os';
import { expect, test } from '@playwright/test';
import { baseURL } from '../playwright.config';

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

test('the development server (npm run dev, no HOST) listens on 127.0.0.1 only', async () => {
  const port = Number(new URL(baseURL).port);
  expect(await connects('127.0.0.1', port)).toBe(true);
  expect(await connects(otherAddressOfThisMachine(), port)).toBe(false);
});

test('the portal works at http://127.0.0.1 too (the host development prints): the sign-in form becomes usable', async ({ page }) => {
  const port = Number(new URL(baseURL).port);
  const refusedOrigins: string[] = [];
  page.on('console', (message) => {
    if (/cross-origin|allowedDevOrigins/i.test(message.text())) refusedOrigins.push(message.text());
  });
  await page.goto(`http://127.0.0.1:${port}/portal/sign-in`);
  // The button is disabled until the page's scripts have run (hydration): served to a refused origin, they never do.
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled({ timeout: 60_000 });
  expect(refusedOrigins).toEqual([]);
});
