import { KeyForms } from '@/components/portal/key-forms';
import { requireMerchant } from '../../_session/require-merchant';
import { card, mono, note, pageTitle, sectionTitle } from '@/components/portal/styles';

export default async function InterfaceKeysPage() {
  const merchant = await requireMerchant();
  return (
    <>
      <h1 className={pageTitle}>Interface keys · 接口密钥</h1>
      <section className={card} aria-labelledby="app-id-heading">
        <h2 id="app-id-heading" className={sectionTitle}>AppID</h2>
        <p className={`${mono} mt-0 mb-2`} data-testid="app-id">
          {merchant.appId}
        </p>
        <p className={note}>
          Order permission · 下单权限:{' '}
          <strong className="text-gray-900" data-testid="order-permission">{merchant.orderPermission ? 'enabled · 已开通' : 'not enabled yet (the operator enables it) · 未开通（由平台开通）'}</strong>
        </p>
      </section>
      <KeyForms />
    </>
  );
}
