import { PasswordForm } from '@/components/portal/password-form';
import { requireMerchant } from '../../_session/require-merchant';
import { card, note, pageTitle, sectionTitle } from '@/components/portal/styles';

export default async function AccountPage() {
  const merchant = await requireMerchant();
  return (
    <>
      <h1 className={pageTitle}>Account · 账户</h1>
      <section className={card} aria-labelledby="password-heading">
        <h2 id="password-heading" className={sectionTitle}>Change password · 修改密码</h2>
        <p className={`${note} mb-4`}>
          Signed in as · 当前账户 <strong>{merchant.email}</strong>. Changing the password signs out every other session. / 修改密码后其他会话将全部退出。
        </p>
        <PasswordForm />
      </section>
    </>
  );
}
