'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import type { ActionResult } from './action-result';
import { Field, FormMessage, TextAreaField } from './field';
import { button, card, fieldError, fieldLabel, sectionTitle } from './styles';
import { useHydrated } from './use-hydrated';

export type CredentialSubmit = (input: Record<string, string>) => Promise<ActionResult<{ id: number }>>;

/** Submits the form's fields; on success the form is emptied (secrets are never shown again) and the list refreshed. */
function useCredentialForm(submit: CredentialSubmit) {
  const router = useRouter();
  const t = useTranslations('portal.credentials');
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values: Record<string, string> = {};
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') values[name] = value;
    setPending(true);
    setMessage({});
    const result = await submit(values);
    setPending(false);
    if (result.ok) {
      form.reset();
      setFieldErrors({});
      setMessage({
        success: t('submittedNote', { id: result.data.id }),
      });
      router.refresh();
    } else {
      setFieldErrors(result.fieldErrors ?? {});
      setMessage({ error: result.message });
    }
  }
  return { pending, message, fieldErrors, onSubmit };
}

export function AlipayCredentialForm({ submitCredentialAction }: { submitCredentialAction: CredentialSubmit }) {
  const t = useTranslations('portal.credentials.alipay');
  const hydrated = useHydrated();
  const { pending, message, fieldErrors, onSubmit } = useCredentialForm((input) => submitCredentialAction({ ...input, channel: 'ALIPAY' }));
  return (
    <section className={card} aria-labelledby="alipay-heading">
      <h2 id="alipay-heading" className={sectionTitle}>{t('title')}</h2>
      <form onSubmit={onSubmit} noValidate aria-busy={pending} aria-label={t('form')} autoComplete="off">
        <FormMessage error={message.error} success={message.success} />
        <Field label={t('appId')} name="appId" fieldId="alipay-appId" hint={t('appIdHint')} required error={fieldErrors.appId} />
        <TextAreaField
          label={t('privateKey')}
          name="appPrivateKey"
          fieldId="alipay-appPrivateKey"
          hint={t('privateKeyHint')}
          required
          error={fieldErrors.appPrivateKey}
        />
        <TextAreaField label={t('publicKey')} name="alipayPublicKey" fieldId="alipay-alipayPublicKey" required error={fieldErrors.alipayPublicKey} />
        <Field
          label={t('sellerId')}
          name="sellerId"
          fieldId="alipay-sellerId"
          inputMode="numeric"
          hint={t('sellerIdHint')}
          error={fieldErrors.sellerId}
        />
        <button type="submit" className={button()} disabled={pending || !hydrated}>
          {t('submit')}
        </button>
      </form>
    </section>
  );
}

export function WechatCredentialForm({ submitCredentialAction }: { submitCredentialAction: CredentialSubmit }) {
  const t = useTranslations('portal.credentials.wechat');
  const hydrated = useHydrated();
  const { pending, message, fieldErrors, onSubmit } = useCredentialForm((input) => submitCredentialAction({ ...input, channel: 'WECHAT' }));
  const [verification, setVerification] = useState<'certificate' | 'publicKey'>('publicKey');
  return (
    <section className={card} aria-labelledby="wechat-heading">
      <h2 id="wechat-heading" className={sectionTitle}>{t('title')}</h2>
      <form onSubmit={onSubmit} noValidate aria-busy={pending} aria-label={t('form')} autoComplete="off">
        <FormMessage error={message.error} success={message.success} />
        <Field label={t('appId')} name="appId" fieldId="wechat-appId" hint={t('appIdHint')} required error={fieldErrors.appId} />
        <Field label={t('mchId')} name="mchId" fieldId="wechat-mchId" inputMode="numeric" required error={fieldErrors.mchId} />
        <Field label={t('serial')} name="merchantCertSerial" fieldId="wechat-merchantCertSerial" required error={fieldErrors.merchantCertSerial} />
        <TextAreaField
          label={t('privateKey')}
          name="merchantPrivateKey"
          fieldId="wechat-merchantPrivateKey"
          hint="apiclient_key.pem"
          required
          error={fieldErrors.merchantPrivateKey}
        />
        <Field label={t('apiV3Key')} name="apiV3Key" fieldId="wechat-apiV3Key" type="password" hint={t('apiV3KeyHint')} required error={fieldErrors.apiV3Key} />
        <fieldset className="m-0 mb-4 flex flex-wrap gap-x-5 gap-y-2 border-0 p-0">
          <legend className={`${fieldLabel} mb-1.5 p-0`}>{t('verifyWith')}</legend>
          <label className="inline-flex items-center gap-2">
            <input type="radio" className="size-4 accent-teal-700" name="verification" value="publicKey" checked={verification === 'publicKey'} onChange={() => setVerification('publicKey')} /> {t('publicKey')}
          </label>
          <label className="inline-flex items-center gap-2">
            <input type="radio" className="size-4 accent-teal-700" name="verification" value="certificate" checked={verification === 'certificate'} onChange={() => setVerification('certificate')} />{' '}
            {t('certificate')}
          </label>
        </fieldset>
        {verification === 'certificate' ? (
          <TextAreaField label={t('certificate')} name="platformCertificate" fieldId="wechat-platformCertificate" required error={fieldErrors.platformCertificate} />
        ) : (
          <>
            <TextAreaField label={t('publicKey')} name="wechatPayPublicKey" fieldId="wechat-wechatPayPublicKey" required error={fieldErrors.wechatPayPublicKey} />
            <Field
              label={t('publicKeyId')}
              name="wechatPayPublicKeyId"
              fieldId="wechat-wechatPayPublicKeyId"
              hint="PUB_KEY_ID_…"
              required
              error={fieldErrors.wechatPayPublicKeyId}
            />
            {fieldErrors.platformCertificate ? (
              <p className={`${fieldError} mb-4`} role="alert">
                {fieldErrors.platformCertificate}
              </p>
            ) : null}
          </>
        )}
        <button type="submit" className={button()} disabled={pending || !hydrated}>
          {t('submit')}
        </button>
      </form>
    </section>
  );
}
