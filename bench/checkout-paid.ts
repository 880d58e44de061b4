import { execFileSync } from 'node:child_process';
import type { Browser, CDPSession } from '@playwright/test';
import type { CheckoutFixture } from '../e2e/visual/checkout-fixtures';

/** How long a payer looks at "awaiting payment" after the service credited the payment: credited → paid page shown. */
export interface PaidLatency {
  profile: string;
  samplesMs: number[];
}

/** Chrome DevTools' "Slow 4G"-like profile of the load benchmark, for the same phone. */
export type NetworkProfile = { name: string; apply?: (cdp: CDPSession) => Promise<void> };

/**
 * Per run: a USDT checkout is open in a fresh phone context (its script polling the status), the payment is credited
 * by the operator CLI (`order complete --json`, which says when it marked the order paid) at a random moment of the
 * poll cycle, and the bench waits for the page to show paid. The figure is from that instant to the paid view.
 */
export async function measurePaidLatency(browser: Browser, fixture: CheckoutFixture, options: { baseUrl: string; env: NodeJS.ProcessEnv; runs: number; profile: NetworkProfile }): Promise<PaidLatency> {
  const samplesMs: number[] = [];
  for (let run = 0; run < options.runs; run += 1) {
    const order = await fixture.usdt();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'zh-CN' });
    try {
      const page = await context.newPage();
      if (options.profile.apply) await options.profile.apply(await context.newCDPSession(page));
      await page.goto(`${options.baseUrl}${order.path}`, { waitUntil: 'load', timeout: 120_000 });
      await page.waitForTimeout(1000 + Math.random() * 1000); // anywhere in the page's poll cycle
      const output = execFileSync(process.execPath, ['dist/cli/admin.js', 'order', 'complete', '--app-id', fixture.appId, '--merchant-order-no', order.merchantOrderNo, '--reason', 'bench: credited', '--json'], {
        encoding: 'utf8',
        env: options.env,
        timeout: 60_000,
      });
      const paidAt = Date.parse((JSON.parse(output) as { paidAt: string }).paidAt);
      await page.waitForSelector('[data-testid="paid-amount"]', { timeout: 30_000 });
      samplesMs.push(Date.now() - paidAt);
    } finally {
      await context.close();
    }
  }
  return { profile: options.profile.name, samplesMs };
}
