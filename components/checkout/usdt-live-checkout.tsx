'use client';

import { useEffect, useState } from 'react';
import type { CheckoutLanguage, CheckoutMessages } from '@/lib/i18n/checkout-messages';
import { CopyButton } from './copy-button';

export interface UsdtCheckoutProps {
  token: string;
  language: CheckoutLanguage;
  messages: CheckoutMessages;
  orderNo: string;
  productName: string | null;
  payUsdt: string;
  address: string;
  qrDataUrl: string;
  initialStatus: 'pending' | 'paid' | 'expired';
  initialSecondsLeft: number;
  initialRedirectUrl: string | null;
  sandboxWalletUrl: string | null;
}

const POLL_MS = 3000;
const RETURN_AFTER_MS = 3000;

function formatSeconds(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${(seconds % 60).toString().padStart(2, '0')}`;
}

/** The live part of the USDT checkout: countdown, status polling, and the paid / expired views. */
export function UsdtLiveCheckout(props: UsdtCheckoutProps) {
  const { messages: t } = props;
  const [status, setStatus] = useState(props.initialStatus);
  const [secondsLeft, setSecondsLeft] = useState(props.initialSecondsLeft);
  const [redirectUrl, setRedirectUrl] = useState(props.initialRedirectUrl);

  useEffect(() => {
    if (status !== 'pending') return;
    const deadline = Date.now() + props.initialSecondsLeft * 1000;
    const ticker = setInterval(() => setSecondsLeft(Math.max(0, Math.round((deadline - Date.now()) / 1000))), 1000);
    const poller = setInterval(async () => {
      try {
        const response = await fetch(`/pay/${props.token}/status`, { cache: 'no-store' });
        if (!response.ok) return;
        const body = (await response.json()) as { status: UsdtCheckoutProps['initialStatus']; redirectUrl: string | null };
        setRedirectUrl(body.redirectUrl);
        setStatus(body.status);
      } catch {
        // offline for a moment: the next poll tries again
      }
    }, POLL_MS);
    return () => {
      clearInterval(ticker);
      clearInterval(poller);
    };
  }, [status, props.token, props.initialSecondsLeft]);

  useEffect(() => {
    if (status !== 'paid' || !redirectUrl) return;
    const timer = setTimeout(() => window.location.assign(redirectUrl), RETURN_AFTER_MS);
    return () => clearTimeout(timer);
  }, [status, redirectUrl]);

  const otherLanguage = props.language === 'zh' ? 'en' : 'zh';
  const languageLink = (
    <a className="language" href={`?lang=${otherLanguage}`} hrefLang={otherLanguage}>
      {t.language}
    </a>
  );

  if (status === 'paid') {
    return (
      <section className="card" aria-labelledby="paid-title" data-testid="checkout-paid">
        {languageLink}
        <h1 id="paid-title">{t.paidTitle}</h1>
        <p className="amount">{props.payUsdt} USDT</p>
        <p role="status">{t.paidText}</p>
        {redirectUrl ? (
          <>
            <p>{t.returning}</p>
            <p>
              <a href={redirectUrl}>{t.returnNow}</a>
            </p>
          </>
        ) : null}
        <p className="label">{t.order}</p>
        <p className="mono">{props.orderNo}</p>
      </section>
    );
  }

  if (status === 'expired' || secondsLeft === 0) {
    return (
      <section className="card" aria-labelledby="expired-title" data-testid="checkout-expired">
        {languageLink}
        <h1 id="expired-title">{t.expiredTitle}</h1>
        <p role="alert">{t.expiredText}</p>
        <p className="label">{t.order}</p>
        <p className="mono">{props.orderNo}</p>
      </section>
    );
  }

  return (
    <section className="card" aria-labelledby="pay-title" data-testid="checkout-pending">
      {languageLink}
      <h1 id="pay-title">{t.title}</h1>
      {props.productName ? <p>{props.productName}</p> : null}
      <p className="label">{t.amountLabel}</p>
      <div className="row">
        <p className="amount" data-testid="pay-amount">
          {props.payUsdt} USDT
        </p>
        <CopyButton text={props.payUsdt} label={t.copyAmount} copiedLabel={t.copied} testId="copy-amount" />
      </div>
      <p className="note">{t.exactNote}</p>
      <p className="label">{t.networkLabel}</p>
      <p className="mono" data-testid="pay-network">
        TRC20 (TRON)
      </p>
      <p className="warn" role="note">
        {t.networkWarning}
      </p>
      <p className="label">{t.addressLabel}</p>
      <div className="row">
        <p className="mono" data-testid="pay-address">
          {props.address}
        </p>
        <CopyButton text={props.address} label={t.copyAddress} copiedLabel={t.copied} testId="copy-address" />
      </div>
      {/* eslint-disable-next-line @next/next/no-img-element */}
      <img className="qr" src={props.qrDataUrl} alt={`${t.qrAlt}: ${props.address}`} data-testid="pay-qr" />
      <p className="label">{t.timeLeft}</p>
      <p className="mono countdown" data-testid="pay-time-left" aria-live="off">
        {formatSeconds(secondsLeft)}
      </p>
      <p className="status" data-testid="pay-status" role="status">
        {t.waiting}
      </p>
      {props.sandboxWalletUrl ? (
        <p>
          <a href={props.sandboxWalletUrl} data-testid="sandbox-wallet">
            {t.sandboxWallet}
          </a>
        </p>
      ) : null}
      <p className="label">{t.order}</p>
      <p className="mono">{props.orderNo}</p>
    </section>
  );
}
