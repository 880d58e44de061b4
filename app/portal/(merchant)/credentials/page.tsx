import { AlipayCredentialForm, WechatCredentialForm } from '@/components/portal/credential-forms';
import { CredentialActions } from '@/components/portal/credential-actions';
import { formatTime } from '@/components/portal/format';
import { badge, card, note, pageTitle, sectionTitle, table, tableWrap, td, th } from '@/components/portal/styles';
import { listMerchantCredentials, type CredentialSummary } from '@/lib/credentials/credentials';
import { getDb } from '@/lib/db/client';
import { requireMerchant } from '../../_session/require-merchant';

const REVIEW_LABELS: Record<CredentialSummary['reviewStatus'], string> = {
  pending: 'Pending review · 待审核',
  approved: 'Approved · 已通过',
  rejected: 'Rejected · 已驳回',
};

function details(credential: CredentialSummary): string {
  if (credential.channel === 'ALIPAY') return `App ID ${credential.upstreamAppId}${credential.sellerId ? `, seller_id ${credential.sellerId}` : ''}`;
  const verification = credential.wechatVerification === 'platform_certificate' ? 'platform certificate' : `public key ${credential.upstreamPublicKeyId}`;
  return `appid ${credential.upstreamAppId}, mchid ${credential.mchId}, serial ${credential.merchantCertSerial}, ${verification}`;
}

export default async function CredentialsPage() {
  const merchant = await requireMerchant();
  const credentials = await listMerchantCredentials(getDb(), merchant.merchantId);
  return (
    <>
      <h1 className={pageTitle}>Upstream credentials · 上游凭证</h1>
      <p className={`${note} mb-4`}>
        ALIPAY and WECHAT orders are placed with your own upstream application credentials. A credential is used only once the platform has
        approved it and while it is enabled; orders may name one by its ID (<code>credentialId</code>), else the newest usable one is used. Keys
        are stored encrypted and never shown again. / 支付宝、微信支付订单使用您自己的上游应用凭证。凭证经平台审核通过且处于启用状态时才会被使用；下单时可通过
        credentialId 指定，否则使用最新的可用凭证。密钥加密保存，提交后不再显示。
      </p>
      <section className={card} aria-labelledby="credentials-heading">
        <h2 id="credentials-heading" className={sectionTitle}>Your credentials · 我的凭证</h2>
        {credentials.length === 0 ? (
          <p className="m-0" data-testid="no-credentials">No credentials yet. · 暂无凭证。</p>
        ) : (
          <div className={tableWrap}>
            <table className={table}>
              <thead>
                <tr>
                  <th scope="col" className={th}>ID</th>
                  <th scope="col" className={th}>Channel · 渠道</th>
                  <th scope="col" className={th}>Details · 详情</th>
                  <th scope="col" className={th}>Review · 审核</th>
                  <th scope="col" className={th}>State · 状态</th>
                  <th scope="col" className={th}>Submitted · 提交时间</th>
                  <th scope="col" className={th}>Actions · 操作</th>
                </tr>
              </thead>
              <tbody>
                {credentials.map((credential) => (
                  <tr key={credential.id} data-testid={`credential-${credential.id}`}>
                    <td className={`${td} font-mono`}>{credential.id}</td>
                    <td className={td}>{credential.channel}</td>
                    <td className={`${td} min-w-48 font-mono text-xs break-all whitespace-normal`}>{details(credential)}</td>
                    <td className={td} data-testid="credential-review">
                      <span className={badge(credential.reviewStatus)}>{REVIEW_LABELS[credential.reviewStatus]}</span>
                      {credential.reviewStatus === 'rejected' && credential.rejectionReason ? (
                        <p className={`${note} mt-1 whitespace-normal`} data-testid="credential-rejection">
                          Reason · 原因: {credential.rejectionReason}
                        </p>
                      ) : null}
                    </td>
                    <td className={td} data-testid="credential-state">
                      {credential.enabled ? 'Enabled · 已启用' : 'Disabled · 已停用'}
                      {credential.usable ? ' · usable 可用' : ''}
                    </td>
                    <td className={td}>{formatTime(credential.createdAt)}</td>
                    <td className={td}>
                      <CredentialActions id={credential.id} enabled={credential.enabled} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <AlipayCredentialForm />
      <WechatCredentialForm />
    </>
  );
}
