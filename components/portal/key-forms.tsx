'use client';

import { useState, type FormEvent } from 'react';
import { revealSecretAction, rotateSecretAction } from '@/app/portal/(merchant)/keys/actions';
import { Field, FormMessage } from './field';
import { button, card, formSuccess, mono, note, sectionTitle, warning } from './styles';
import { useHydrated } from './use-hydrated';

export function KeyForms() {
  const hydrated = useHydrated();
  const [secret, setSecret] = useState<string>();
  const [rotated, setRotated] = useState(false);
  const [revealError, setRevealError] = useState<{ message?: string; password?: string }>({});
  const [rotateError, setRotateError] = useState<{ message?: string; password?: string; confirmed?: string }>({});
  const [pending, setPending] = useState<'reveal' | 'rotate'>();

  async function reveal(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending('reveal');
    const result = await revealSecretAction(String(new FormData(form).get('password') ?? ''));
    setPending(undefined);
    if (result.ok) {
      setSecret(result.data.appSecret);
      setRotated(false);
      setRevealError({});
      form.reset();
    } else setRevealError({ message: result.message, password: result.fieldErrors?.password });
  }

  async function rotate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    setPending('rotate');
    const result = await rotateSecretAction({ password: String(data.get('password') ?? ''), confirmed: data.get('confirmed') === 'on' });
    setPending(undefined);
    if (result.ok) {
      setSecret(result.data.appSecret);
      setRotated(true);
      setRotateError({});
      form.reset();
    } else setRotateError({ message: result.message, password: result.fieldErrors?.password, confirmed: result.fieldErrors?.confirmed });
  }

  return (
    <>
      <section className={card} aria-labelledby="secret-heading">
        <h2 id="secret-heading" className={sectionTitle}>AppSecret</h2>
        {secret ? (
          <div aria-live="polite">
            {rotated ? (
              <p className={formSuccess} role="status">
                New AppSecret created. The old one no longer works. / 新密钥已生成，旧密钥已失效。
              </p>
            ) : null}
            <p className={`${mono} m-0 mb-2 rounded-md border border-dashed border-gray-400 bg-gray-50 p-2.5 text-sm`} data-testid="app-secret">
              {secret}
            </p>
            <p className={`${note} mb-3`}>Keep it on your server only; it signs every API request. / 请仅保存在服务器端，用于签名所有接口请求。</p>
            <button type="button" className={button('secondary')} onClick={() => setSecret(undefined)}>
              Hide · 隐藏
            </button>
          </div>
        ) : (
          <form onSubmit={reveal} noValidate aria-busy={pending === 'reveal'}>
            <p className={`${note} mb-3`}>Hidden. Enter your password to reveal it. / 已隐藏，输入登录密码后显示。</p>
            <FormMessage error={revealError.message} />
            <Field label="Password · 密码" name="password" fieldId="reveal-password" type="password" autoComplete="current-password" required error={revealError.password} />
            <button type="submit" className={button()} disabled={pending !== undefined || !hydrated}>
              Reveal AppSecret · 显示密钥
            </button>
          </form>
        )}
      </section>
      <section className={card} aria-labelledby="rotate-heading">
        <h2 id="rotate-heading" className={sectionTitle}>Rotate AppSecret · 重置密钥</h2>
        <p className={`${warning} mt-0 mb-4`} id="rotate-warning">
          The old AppSecret stops working at once: requests signed with it are refused (code 1002) and notifications are signed with the new
          one. Update your servers right after rotating. / 重置后旧密钥立即失效：用旧密钥签名的请求将返回 1002，通知改用新密钥签名。请立即更新服务器配置。
        </p>
        <form onSubmit={rotate} noValidate aria-busy={pending === 'rotate'} aria-describedby="rotate-warning">
          <FormMessage error={rotateError.message} />
          <div className="mb-4 flex items-start gap-2">
            <input id="rotate-confirmed" className="mt-0.5 size-4 shrink-0 accent-teal-700" name="confirmed" type="checkbox" aria-invalid={rotateError.confirmed ? true : undefined} aria-describedby="rotate-warning" />
            <label htmlFor="rotate-confirmed" className="text-sm">I understand the old AppSecret stops working immediately · 我已知晓旧密钥将立即失效</label>
          </div>
          <Field label="Password · 密码" name="password" fieldId="rotate-password" type="password" autoComplete="current-password" required error={rotateError.password} />
          <button type="submit" className={button('danger')} disabled={pending !== undefined || !hydrated}>
            Rotate AppSecret · 重置密钥
          </button>
        </form>
      </section>
    </>
  );
}
