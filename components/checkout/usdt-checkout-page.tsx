import { notFound } from 'next/navigation';
import QRCode from 'qrcode';
import { getDb } from '@/lib/db/client';
import { findUsdtCheckout } from '@/lib/orders/checkout-view';
import { TimeLeft } from '@/components/time-left';

export async function UsdtCheckoutPage({ token }: { token: string }) {
  const checkout = await findUsdtCheckout(getDb(), token);
  if (!checkout) notFound();
  const qr = await QRCode.toDataURL(checkout.address, { margin: 1, width: 240 });

  return (
    <main className="checkout">
      <section className="card" aria-labelledby="pay-title">
        <h1 id="pay-title">Pay with USDT</h1>
        {checkout.productName ? <p>{checkout.productName}</p> : null}
        <p className="label">Amount to pay (exactly)</p>
        <p className="amount" data-testid="pay-amount">
          {checkout.payUsdt} USDT
        </p>
        <p className="label">Network</p>
        <p className="mono" data-testid="pay-network">
          {checkout.network} (TRON)
        </p>
        <p className="warn">Send USDT on the TRC20 network only, and exactly the amount shown; another amount cannot be matched to this order.</p>
        <p className="label">Receiving address</p>
        <p className="mono" data-testid="pay-address">
          {checkout.address}
        </p>
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img className="qr" src={qr} alt={`QR code of the receiving address ${checkout.address}`} data-testid="pay-qr" />
        <p className="label">Status</p>
        <p className="status" data-testid="pay-status">
          {checkout.status === 'pending' ? 'Waiting for payment' : checkout.status === 'paid' ? 'Paid' : 'Expired'}
        </p>
        {checkout.status === 'pending' ? <TimeLeft initialSeconds={checkout.secondsLeft} /> : null}
        <p className="label">Order</p>
        <p className="mono">{checkout.orderNo}</p>
      </section>
    </main>
  );
}
