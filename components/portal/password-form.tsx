'use client';

import { signIn } from 'next-auth/react';
import { useState, type FormEvent } from 'react';
import { changePasswordAction } from '@/app/portal/(merchant)/account/actions';
import { Field, FormMessage } from './field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';

export function PasswordForm() {
  const hydrated = useHydrated();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const newPassword = String(data.get('newPassword') ?? '');
    if (newPassword !== String(data.get('confirmPassword') ?? '')) {
      setErrors({ confirmPassword: 'The passwords do not match / 两次输入的密码不一致' });
      setMessage({ error: 'Check the fields below. / 请检查下面的字段。' });
      return;
    }
    setPending(true);
    const result = await changePasswordAction({ password: String(data.get('password') ?? ''), newPassword });
    if (!result.ok) {
      setPending(false);
      setErrors(result.fieldErrors ?? {});
      setMessage({ error: result.message });
      return;
    }
    // The old session ended with the change; this one continues under the new password.
    await signIn('credentials', { email: result.data.email, password: newPassword, redirect: false });
    setPending(false);
    setErrors({});
    setMessage({ success: 'Password changed. Other sessions were signed out. / 密码已修改，其他会话已退出。' });
    form.reset();
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={message.error} success={message.success} />
      <Field label="Current password · 当前密码" name="password" type="password" autoComplete="current-password" required error={errors.password} />
      <Field
        label="New password · 新密码"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        hint="At least 10 characters / 至少 10 个字符"
        required
        error={errors.newPassword}
      />
      <Field label="Confirm new password · 确认新密码" name="confirmPassword" type="password" autoComplete="new-password" required error={errors.confirmPassword} />
      <button type="submit" className={button()} disabled={pending || !hydrated}>
        Change password · 修改密码
      </button>
    </form>
  );
}
