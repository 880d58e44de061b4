import Link from 'next/link';
import { SignInForm } from '@/components/portal/sign-in-form';

const MESSAGES: Record<string, string> = {
  SessionExpired: 'Your session has ended. Sign in again. / 会话已失效，请重新登录。',
  NotMerchant: 'This back office is for merchant accounts. / 此后台仅供商户账户使用。',
  NotOperator: 'The operator console is for operator accounts. Sign in with one. / 运营后台仅供运营账户使用，请使用运营账户登录。',
  CredentialsSignin: 'Email or password is not correct. / 邮箱或密码不正确。',
  Throttled: 'Too many sign-in attempts. Try again in 15 minutes. / 登录尝试过多，请 15 分钟后再试。',
};

/**
 * Only a path inside the portal or the operator console is followed after sign-in (no open redirect); the form
 * then sends each role to its own area (an operator to /operator, a merchant to /portal) whatever `next` says.
 */
function safeNext(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text && /^\/(portal|operator)(\/[\w\-./?=&%]*)?$/.test(text) && !text.startsWith('//') ? text : undefined;
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const error = typeof params.error === 'string' ? (MESSAGES[params.error] ?? MESSAGES.CredentialsSignin) : undefined;
  return (
    <main id="main" className="auth card">
      <h1>Sign in · 登录</h1>
      <SignInForm initialError={error} next={safeNext(params.next)} />
      <p className="note">
        No account yet? / 还没有账户？ <Link href="/portal/sign-up">Create a merchant account · 注册商户</Link>
      </p>
    </main>
  );
}
