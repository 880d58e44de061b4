import type { UsdtCheckout } from '@/lib/channels/usdt/checkout-view';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { CancelOrder } from './cancel-order';
import { CheckoutExpired, CheckoutPaid } from './checkout-final-states';
import { WaitingForPayment } from './checkout-pending-parts';
import { CheckoutShell, type CheckoutPageProps } from './checkout-shell';
import { CopyValueButton } from './behaviour-markers';
import { qrSvgDataUrl } from './qr-svg';

/**
 * TronLink's documented deep link (docs.tronlink.org, "DeepLink › Open Wallet", v4.10.0+): it opens the wallet app;
 * a prefilled transfer needs a whitelisted DApp and the payer's own address, so the payer pastes what they copied.
 */
export const TRONLINK_OPEN_URL = `tronlinkoutside://pull.activity?param=${encodeURIComponent(JSON.stringify({ action: 'open', protocol: 'TronLink', version: '1.0' }))}`;

/**
 * The USDT checkout, rendered on the server: the amount, the address and its QR code are in the HTML before any
 * script runs; the copy buttons, the countdown and the status refresh are the only scripts.
 */
export function UsdtCheckoutPage({ frame, token, view: checkout }: CheckoutPageProps<UsdtCheckout>) {
  const { t, merchant } = frame;
  const amount = `${checkout.payUsdt} USDT`;
  if (checkout.status === 'paid') {
    return <CheckoutPaid frame={frame} token={token} amount={amount} orderNo={checkout.orderNo} redirectUrl={checkout.redirectUrl} />;
  }
  if (checkout.status === 'expired') {
    return <CheckoutExpired frame={frame} orderNo={checkout.orderNo} redirectUrl={checkout.redirectUrl} text={t('usdt.expiredText')} />;
  }
  const qrDataUrl = qrSvgDataUrl(checkout.address);
  // The sandbox wallet of the order's chain (TRON's, or the EVM one with the chain chosen), coming back here.
  const sandboxWalletUrl = sandboxEnabled() ? `${checkout.sandboxWalletPath}&${new URLSearchParams({ back: `/pay/${token}` })}` : null;
  const onTron = checkout.chain.name === 'TRC20';
  return (
    <CheckoutShell
      frame={frame}
      state="pending"
      title={t('usdt.title')}
      orderNo={checkout.orderNo}
      foot={<CancelOrder t={t} token={token} merchantName={merchant.name} redirectUrl={checkout.redirectUrl} />}
    >
      {checkout.productName ? <p className="note">{checkout.productName}</p> : null}
      <p className="label">{t('amountLabel')}</p>
      <div className="row">
        <p className="amount" data-testid="pay-amount">
          {amount}
        </p>
        <CopyValueButton text={checkout.payUsdt} label={t('usdt.copyAmount')} copiedLabel={t('usdt.copied')} testId="copy-amount" />
      </div>
      <p className="note">{t('usdt.exactNote')}</p>
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img className="qr" src={qrDataUrl} alt={t('usdt.qrAlt', { address: checkout.address })} width={176} height={176} data-testid="pay-qr" />
      <p className="label">{t('usdt.addressLabel')}</p>
      <div className="row">
        <p className="mono" data-testid="pay-address">
          {checkout.address}
        </p>
        <CopyValueButton text={checkout.address} label={t('usdt.copyAddress')} copiedLabel={t('usdt.copied')} testId="copy-address" />
      </div>
      <p className="label">{t('usdt.networkLabel')}</p>
      <p className="mono" data-testid="pay-network">
        {checkout.network}
      </p>
      <p className="warn" role="note">
        {checkout.networkWarning[frame.locale === 'zh-CN' ? 'zh' : 'en']}
      </p>
      {onTron ? (
        <>
          <a className="btn" href={TRONLINK_OPEN_URL} data-testid="open-tronlink">
            {t('usdt.openTronLink')}
          </a>
          <p className="note">{t('usdt.tronLinkHint')}</p>
        </>
      ) : null}
      {checkout.metaMaskUrl ? (
        <>
          <a className="btn" href={checkout.metaMaskUrl} data-testid="open-metamask">
            {t('usdt.openMetaMask')}
          </a>
          <p className="note">{t('usdt.metaMaskHint', { network: checkout.network })}</p>
        </>
      ) : null}
      {sandboxWalletUrl ? (
        <a className="btn-secondary" href={sandboxWalletUrl} data-testid="sandbox-wallet">
          {t('usdt.sandboxWallet')}
        </a>
      ) : null}
      <WaitingForPayment token={token} secondsLeft={checkout.secondsLeft} texts={{ timeLeft: t('timeLeft'), waiting: t('waiting') }} />
    </CheckoutShell>
  );
}
