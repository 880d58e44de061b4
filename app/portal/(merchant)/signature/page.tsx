import { SignatureDebugger } from '@/components/portal/signature-debugger';
import { requireMerchant } from '../../_session/require-merchant';
import { note, pageTitle } from '@/components/portal/styles';

export default async function SignaturePage() {
  const merchant = await requireMerchant();
  return (
    <>
      <h1 className={pageTitle}>Signature debugger · 签名调试</h1>
      <p className={`${note} mb-4`}>
        Paste a request body as you send it and the AppSecret you sign with. The page shows the text the service hashes (empty fields dropped), the
        signature it expects, and why yours differs (code 1002). The AppSecret is used for this check only and is not stored. / 粘贴请求 JSON
        与签名用的 AppSecret，查看服务端签名串、期望签名及 1002 的原因。密钥仅用于本次校验，不会保存。
      </p>
      <SignatureDebugger appId={merchant.appId} />
    </>
  );
}
