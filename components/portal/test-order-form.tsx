'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import type { ActionResult } from './action-result';
import { Field, FormMessage } from './field';
import { button, control, fieldLabel, fieldWrap, formSuccess, link, mono } from './styles';
import { useHydrated } from './use-hydrated';
import { useChannelName } from '@/components/i18n/channel-name';

type Created = { orderNo: string; merchantOrderNo: string; payUrl: string };

/** Creates a test order through the open API's submit, then links its checkout (paid with the sandbox) and its detail. */
export function TestOrderForm({
  methods,
  methodLabels,
  defaultNotifyUrl,
  createTestOrderAction,
}: {
  methods: Record<string, readonly string[]>;
  /** Each method's name in words ("wap" → "支付宝（手机网站）"). */
  methodLabels: Record<string, string>;
  defaultNotifyUrl: string;
  createTestOrderAction: (input: Record<string, string>) => Promise<ActionResult<Created>>;
}) {
  const t = useTranslations('portal.test');
  const channelName = useChannelName();
  const hydrated = useHydrated();
  const [channel, setChannel] = useState(Object.keys(methods)[0] ?? '');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [created, setCreated] = useState<Created>();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values: Record<string, string> = {};
    for (const [name, value] of new FormData(event.currentTarget)) if (typeof value === 'string') values[name] = value;
    setPending(true);
    setError(undefined);
    const result = await createTestOrderAction(values);
    setPending(false);
    if (result.ok) setCreated(result.data);
    else {
      setCreated(undefined);
      setError(result.message);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending} aria-label={t('form')}>
      <FormMessage error={error} />
      <div className="grid grid-cols-1 gap-x-4 sm:grid-cols-3">
        <div className={fieldWrap}>
          <label htmlFor="test-channel" className={fieldLabel}>
            {t('channel')}
          </label>
          <select id="test-channel" name="channel" className={`${control} h-10`} value={channel} onChange={(event) => setChannel(event.target.value)}>
            {Object.keys(methods).map((name) => (
              <option key={name} value={name}>
                {channelName(name)}
              </option>
            ))}
          </select>
        </div>
        <div className={fieldWrap}>
          <label htmlFor="test-method" className={fieldLabel}>
            {t('payMethod')}
          </label>
          <select id="test-method" name="payMethod" className={`${control} h-10`} key={channel}>
            {(methods[channel] ?? []).map((method) => (
              <option key={method} value={method}>
                {methodLabels[method] ?? method}
              </option>
            ))}
          </select>
        </div>
        <Field label={t('amount')} name="amount" fieldId="test-amount" inputMode="decimal" defaultValue="10.00" required />
      </div>
      <Field label={t('notifyUrl')} name="notifyUrl" fieldId="test-notifyUrl" type="url" defaultValue={defaultNotifyUrl} hint={t('notifyUrlHint')} required />
      <button type="submit" className={button()} disabled={pending || !hydrated}>
        {t('create')}
      </button>
      <div aria-live="polite">
        {created ? (
          <div className={`${formSuccess} mt-4`} role="status" data-testid="test-order-created">
            <p className="m-0">{t('created', { merchantOrderNo: created.merchantOrderNo })}</p>
            <p className="m-0 mt-2 flex flex-wrap gap-x-4 gap-y-1">
              <a className={link} href={created.payUrl} target="_blank" rel="noopener" data-testid="test-order-pay">
                {t('pay')}
              </a>
              <Link className={link} href={`/portal/orders/${encodeURIComponent(created.orderNo)}`} data-testid="test-order-detail">
                {t('detail')}
              </Link>
            </p>
            <p className={`m-0 mt-1 text-xs ${mono}`}>{created.payUrl}</p>
          </div>
        ) : null}
      </div>
    </form>
  );
}
