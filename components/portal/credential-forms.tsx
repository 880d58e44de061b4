'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { submitAlipayCredentialAction, submitWechatCredentialAction } from '@/app/portal/(merchant)/credentials/actions';
import type { ActionResult } from '@/app/portal/_session/action-result';
import { Field, FormMessage, TextAreaField } from './field';
import { button, card, fieldError, fieldLabel, sectionTitle } from './styles';
import { useHydrated } from './use-hydrated';

type Submit = (input: Record<string, string>) => Promise<ActionResult<{ id: number }>>;

/** Submits the form's fields; on success the form is emptied (secrets are never shown again) and the list refreshed. */
function useCredentialForm(submit: Submit) {
  const router = useRouter();
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
        success: `Credential ${result.data.id} submitted; it is pending review. Its keys are stored encrypted and will not be shown again. / 凭证 ${result.data.id} 已提交，等待审核。密钥已加密保存，不再显示。`,
      });
      router.refresh();
    } else {
      setFieldErrors(result.fieldErrors ?? {});
      setMessage({ error: result.message });
    }
  }
  return { pending, message, fieldErrors, onSubmit };
}

export function AlipayCredentialForm() {
  const hydrated = useHydrated();
  const { pending, message, fieldErrors, onSubmit } = useCredentialForm(submitAlipayCredentialAction);
  return (
    <section className={card} aria-labelledby="alipay-heading">
      <h2 id="alipay-heading" className={sectionTitle}>Add an ALIPAY credential · 添加支付宝凭证</h2>
      <form onSubmit={onSubmit} noValidate aria-busy={pending} aria-label="ALIPAY credential · 支付宝凭证" autoComplete="off">
        <FormMessage error={message.error} success={message.success} />
        <Field label="App ID · 应用 ID" name="appId" fieldId="alipay-appId" hint="16 digits, from Alipay Open Platform / 支付宝开放平台的 16 位应用 ID" required error={fieldErrors.appId} />
        <TextAreaField
          label="App private key · 应用私钥"
          name="appPrivateKey"
          fieldId="alipay-appPrivateKey"
          hint="RSA2 (2048-bit or more), PEM or the bare base64 from Alipay's key tool / RSA2 私钥（PEM 或密钥工具生成的 base64）"
          required
          error={fieldErrors.appPrivateKey}
        />
        <TextAreaField label="Alipay public key · 支付宝公钥" name="alipayPublicKey" fieldId="alipay-alipayPublicKey" required error={fieldErrors.alipayPublicKey} />
        <Field
          label="Alipay user ID (seller_id) · 支付宝账号 ID"
          name="sellerId"
          fieldId="alipay-sellerId"
          inputMode="numeric"
          hint="Optional: your Alipay account's user id, 2088 followed by 12 digits; notifications for another seller are then refused / 选填：您的支付宝账号 ID（2088 开头的 16 位数字），填写后拒绝其他收款方的通知"
          error={fieldErrors.sellerId}
        />
        <button type="submit" className={button()} disabled={pending || !hydrated}>
          Submit ALIPAY credential · 提交支付宝凭证
        </button>
      </form>
    </section>
  );
}

export function WechatCredentialForm() {
  const hydrated = useHydrated();
  const { pending, message, fieldErrors, onSubmit } = useCredentialForm(submitWechatCredentialAction);
  const [verification, setVerification] = useState<'certificate' | 'publicKey'>('publicKey');
  return (
    <section className={card} aria-labelledby="wechat-heading">
      <h2 id="wechat-heading" className={sectionTitle}>Add a WECHAT (API v3) credential · 添加微信支付凭证</h2>
      <form onSubmit={onSubmit} noValidate aria-busy={pending} aria-label="WECHAT credential · 微信支付凭证" autoComplete="off">
        <FormMessage error={message.error} success={message.success} />
        <Field label="App ID (appid) · 应用 ID" name="appId" fieldId="wechat-appId" hint="wx followed by 16 letters or digits" required error={fieldErrors.appId} />
        <Field label="Merchant ID (mchid) · 商户号" name="mchId" fieldId="wechat-mchId" inputMode="numeric" required error={fieldErrors.mchId} />
        <Field label="Merchant certificate serial · 商户证书序列号" name="merchantCertSerial" fieldId="wechat-merchantCertSerial" required error={fieldErrors.merchantCertSerial} />
        <TextAreaField
          label="Merchant private key · 商户私钥"
          name="merchantPrivateKey"
          fieldId="wechat-merchantPrivateKey"
          hint="apiclient_key.pem"
          required
          error={fieldErrors.merchantPrivateKey}
        />
        <Field label="APIv3 key · APIv3 密钥" name="apiV3Key" fieldId="wechat-apiV3Key" type="password" hint="32 characters / 32 位" required error={fieldErrors.apiV3Key} />
        <fieldset className="m-0 mb-4 flex flex-wrap gap-x-5 gap-y-2 border-0 p-0">
          <legend className={`${fieldLabel} mb-1.5 p-0`}>Verify WeChat Pay with · 验签方式</legend>
          <label className="inline-flex items-center gap-2">
            <input type="radio" className="size-4 accent-teal-700" name="verification" value="publicKey" checked={verification === 'publicKey'} onChange={() => setVerification('publicKey')} /> WeChat Pay
            public key · 微信支付公钥
          </label>
          <label className="inline-flex items-center gap-2">
            <input type="radio" className="size-4 accent-teal-700" name="verification" value="certificate" checked={verification === 'certificate'} onChange={() => setVerification('certificate')} />{' '}
            Platform certificate · 平台证书
          </label>
        </fieldset>
        {verification === 'certificate' ? (
          <TextAreaField label="Platform certificate · 平台证书" name="platformCertificate" fieldId="wechat-platformCertificate" required error={fieldErrors.platformCertificate} />
        ) : (
          <>
            <TextAreaField label="WeChat Pay public key · 微信支付公钥" name="wechatPayPublicKey" fieldId="wechat-wechatPayPublicKey" required error={fieldErrors.wechatPayPublicKey} />
            <Field
              label="WeChat Pay public key ID · 微信支付公钥 ID"
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
          Submit WECHAT credential · 提交微信支付凭证
        </button>
      </form>
    </section>
  );
}
