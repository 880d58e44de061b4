import Link from 'next/link';
import { SignUpForm } from '@/components/portal/sign-up-form';

export default function SignUpPage() {
  return (
    <main id="main" className="auth card">
      <h1>Create a merchant account · 注册商户</h1>
      <p className="note">
        Your merchant gets an AppID and AppSecret at once; placing orders is enabled by the platform operator after review. / 注册后立即获得
        AppID 与 AppSecret；下单权限由平台审核后开通。
      </p>
      <SignUpForm />
      <p className="note">
        Already registered? / 已有账户？ <Link href="/portal/sign-in">Sign in · 登录</Link>
      </p>
    </main>
  );
}
