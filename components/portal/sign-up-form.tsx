'use client';

import { signIn } from 'next-auth/react';
import { useState, type FormEvent } from 'react';
import { signUpAction } from '@/app/portal/sign-up/actions';
import { Field, FormMessage } from './field';
import { button } from './styles';
import { useHydrated } from './use-hydrated';

export function SignUpForm() {
  const hydrated = useHydrated();
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const values = { merchantName: String(form.get('merchantName') ?? ''), email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') };
    if (values.password !== String(form.get('confirmPassword') ?? '')) {
      setFieldErrors({ confirmPassword: 'The passwords do not match / 两次输入的密码不一致' });
      setError('Check the fields below. / 请检查下面的字段。');
      return;
    }
    setPending(true);
    setError(undefined);
    setFieldErrors({});
    const result = await signUpAction(values);
    if (!result.ok) {
      setPending(false);
      setError(result.message);
      setFieldErrors(result.fieldErrors ?? {});
      return;
    }
    const signedIn = await signIn('credentials', { email: values.email, password: values.password, redirect: false });
    window.location.assign(signedIn?.ok && !signedIn.error ? '/portal/keys' : '/portal/sign-in');
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-busy={pending}>
      <FormMessage error={error} />
      <Field label="Business name · 商户名称" name="merchantName" autoComplete="organization" required error={fieldErrors.merchantName} />
      <Field label="Email · 邮箱" name="email" type="email" autoComplete="username" required error={fieldErrors.email} />
      <Field
        label="Password · 密码"
        name="password"
        type="password"
        autoComplete="new-password"
        hint="At least 10 characters / 至少 10 个字符"
        required
        error={fieldErrors.password}
      />
      <Field label="Confirm password · 确认密码" name="confirmPassword" type="password" autoComplete="new-password" required error={fieldErrors.confirmPassword} />
      <button className={button()} type="submit" disabled={pending || !hydrated}>
        {pending ? 'Creating… · 创建中…' : 'Create account · 创建账户'}
      </button>
    </form>
  );
}
