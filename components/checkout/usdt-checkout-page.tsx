import type { UsdtCheckout } from '@/lib/channels/usdt/checkout-view';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { CancelOrder } from './cancel-order';
import { CheckoutDelayed, CheckoutExpired, CheckoutPaid } from './checkout-final-states';
import type { CheckoutT } from './checkout-locale';
import { PayLayout, WaitingForPayment } from './checkout-pending-parts';
import { CheckoutShell, type AsJson, type CheckoutPageProps } from './checkout-shell';
import { CopyValueButton } from './behaviour-markers';
import { qrSvgDataUrl } from './qr-svg';

/**
 * TronLink's documented deep link (docs.tronlink.org, "DeepLink › Open Wallet", v4.10.0+): it opens the wallet app;
 * a prefilled transfer needs a whitelisted DApp and the payer's own address, so the payer pastes what they copied.
 */
export const TRONLINK_OPEN_URL = `tronlinkoutside://pull.activity?param=${encodeURIComponent(JSON.stringify({ action: 'open', protocol: 'TronLink', version: '1.0' }))}`;

/** The live status under the countdown: while the chain's watcher is behind, that confirmation is late and not to pay again. */
function waitingText(t: CheckoutT, watcherBehind: boolean): string {
  return watcherBehind ? t('usdt.delayedWaiting') : t('waiting');
}

/**
 * The USDT checkout, rendered on the server: the amount, the address and its QR code are in the HTML before any
 * script runs; the copy buttons, the countdown and the status refresh are the only scripts.
 */
export function UsdtCheckoutPage({ frame, token, view: checkout }: CheckoutPageProps<UsdtCheckout>) {
  const { t, merchant } = frame;
  const amount = `${checkout.payUsdt} USDT`;
  if (checkout.status === 'paid') {
    return <CheckoutPaid frame={frame} token={token} amount={amount} orderNo={checkout.orderNo} redirectUrl={checkout.redirectUrl} transaction={checkout.transaction} />;
  }
  // The time is up but the chain's watcher is behind: a transfer made in time may still be credited.
  if (checkout.status === 'expired' && checkout.watcherBehind) {
    return <CheckoutDelayed frame={frame} token={token} title={t('usdt.delayedTitle')} orderNo={checkout.orderNo} text={t('usdt.delayedText', { network: checkout.network })} />;
  }
  if (checkout.status === 'expired') {
    return (
      <CheckoutExpired frame={frame} orderNo={checkout.orderNo} redirectUrl={checkout.redirectUrl} warning={t('usdt.expiredText', { address: checkout.address, network: checkout.network })}>
        <UnpaidTransfers t={t} view={checkout} merchantName={merchant.name} />
      </CheckoutExpired>
    );
  }
  const qrDataUrl = qrSvgDataUrl(checkout.address);
  // The sandbox wallet of the order's chain (TRON's, or the EVM one with the chain chosen), coming back here.
  const sandboxWalletUrl = sandboxEnabled() ? `${checkout.sandboxWalletPath}&${new URLSearchParams({ back: `/pay/${token}` })}` : null;
  const onTron = checkout.chain.name === 'TRC20';
  const language = frame.locale === 'zh-CN' ? 'zh' : 'en';
  return (
    <CheckoutShell
      frame={frame}
      state="pending"
      wide
      title={t('usdt.title', { network: checkout.chain.standard })}
      orderNo={checkout.orderNo}
      foot={<CancelOrder t={t} token={token} merchantName={merchant.name} redirectUrl={checkout.redirectUrl} />}
    >
      <PayLayout
        summary={
          <>
            {checkout.productName ? <p className="note">{checkout.productName}</p> : null}
            <p className="label">{t('amountLabel')}</p>
            <div className="row">
              <p className="amount" data-testid="pay-amount">
                {amount}
              </p>
              <CopyValueButton text={checkout.payUsdt} label={t('usdt.copyAmount')} copiedLabel={t('usdt.copied')} testId="copy-amount" />
            </div>
            <p className="note">{t('usdt.exactNote')}</p>
            <p className="label">{t('usdt.networkLabel')}</p>
            <p className="mono network" data-testid="pay-network">
              {checkout.network}
            </p>
            <p className="warn" role="note">
              {checkout.networkWarning[language]}
            </p>
            <UnpaidTransfers t={t} view={checkout} merchantName={merchant.name} />
            <WaitingForPayment
              token={token}
              secondsLeft={checkout.secondsLeft}
              unpaidSeen={checkout.unpaidSeen}
              texts={{ timeLeft: t('timeLeft'), waiting: waitingText(t, checkout.watcherBehind) }}
            />
          </>
        }
        qr={
          // eslint-disable-next-line @next/next/no-img-element
          <img className="qr" src={qrDataUrl} alt={t('usdt.qrAlt', { address: checkout.address })} width={256} height={256} data-testid="pay-qr" />
        }
        actions={
          <>
            <p className="label">{t('usdt.addressLabel', { network: checkout.chain.standard })}</p>
            <div className="row">
              <p className="mono" data-testid="pay-address">
                {checkout.address}
              </p>
              <CopyValueButton text={checkout.address} label={t('usdt.copyAddress')} copiedLabel={t('usdt.copied')} testId="copy-address" />
            </div>
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
          </>
        }
      />
    </CheckoutShell>
  );
}

/**
 * The transfers that reached the order's address for it without paying it (12.00 sent to a 12.34 order): what was
 * received of what, and what to do next, so the payer neither waits for nothing nor sends the difference.
 */
export function UnpaidTransfers({ t, view, merchantName }: { t: CheckoutT; view: AsJson<UsdtCheckout>; merchantName: string }) {
  if (view.unpaidTransfers.length === 0) return null;
  return (
    <div className="warn" role="alert" data-testid="unpaid-transfers">
      {view.unpaidTransfers.map((transfer) => (
        <div key={transfer.transactionId} data-testid="unpaid-transfer" data-problem={transfer.problem}>
          <p>
            <strong>{t(`usdt.received.${transfer.problem}`, { amount: transfer.amount, due: view.payUsdt, shortBy: transfer.shortBy ?? '' })}</strong>
          </p>
          <p className="mono">
            {t('usdt.receivedTransaction')}:{' '}
            {transfer.explorerUrl ? (
              <a href={transfer.explorerUrl} rel="noopener noreferrer" target="_blank">
                {transfer.transactionId}
              </a>
            ) : (
              transfer.transactionId
            )}
          </p>
        </div>
      ))}
      <p>{t('usdt.receivedNext', { merchant: merchantName })}</p>
    </div>
  );
}
