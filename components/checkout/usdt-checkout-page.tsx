import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import QRCode from 'qrcode';
import { getDb } from '@/lib/db/client';
import { checkoutMessages, pickCheckoutLanguage } from '@/lib/i18n/checkout-messages';
import { findUsdtCheckout } from '@/lib/orders/checkout-view';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { UsdtLiveCheckout } from './usdt-live-checkout';

export async function UsdtCheckoutPage({ token, lang }: { token: string; lang?: string }) {
  const checkout = await findUsdtCheckout(getDb(), token);
  if (!checkout) notFound();
  const language = pickCheckoutLanguage(lang, (await headers()).get('accept-language'));
  const qrDataUrl = await QRCode.toDataURL(checkout.address, { margin: 1, width: 240 });
  const sandboxWalletUrl = sandboxEnabled() ? `/sandbox/tron?${new URLSearchParams({ to: checkout.address, amount: checkout.payUsdt })}` : null;
  return (
    <main className="checkout" lang={language === 'zh' ? 'zh-CN' : 'en'}>
      <UsdtLiveCheckout
        token={token}
        language={language}
        messages={checkoutMessages(language)}
        orderNo={checkout.orderNo}
        productName={checkout.productName}
        payUsdt={checkout.payUsdt}
        address={checkout.address}
        qrDataUrl={qrDataUrl}
        initialStatus={checkout.status}
        initialSecondsLeft={checkout.secondsLeft}
        initialRedirectUrl={checkout.status === 'paid' ? checkout.redirectUrl : null}
        sandboxWalletUrl={sandboxWalletUrl}
      />
    </main>
  );
}
