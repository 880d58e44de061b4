import Link from 'next/link';
import { SignUpForm } from '@/components/portal/sign-up-form';
import { card, link, note, pageTitle } from '@/components/portal/styles';

export default function SignUpPage() {
  return (
    <main id="main" className={`${card} mx-auto my-6 max-w-md sm:my-12`}>
      <h1 className={pageTitle}>Create a merchant account · 注册商户</h1>
      <p className={`${note} mb-4`}>
        Your merchant gets an AppID and AppSecret at once; placing orders is enabled by the platform operator after review. / 注册后立即获得
        AppID 与 AppSecret；下单权限由平台审核后开通。
      </p>
      <SignUpForm />
      <p className={`${note} mt-4`}>
        Already registered? / 已有账户？ <Link className={link} href="/portal/sign-in">Sign in · 登录</Link>
      </p>
    </main>
  );
}
