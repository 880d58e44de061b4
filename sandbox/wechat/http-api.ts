import { getDb, type Database } from '@/lib/db/client';
import { areaTranslator } from '@/lib/i18n/area-translator';
import { publicBaseUrl } from '@/lib/orders/identifiers';
import { handleSandboxWechatApi } from './api';
import { h5VisitRefusal, visitorIp } from './h5-visit';
import { paySandboxWechatOrder, SandboxWechatPayRefused } from './pay';
import { findByPayId } from './store';

export { handleSandboxWechatApi };

/**
 * WeChat follows redirect_url only on the merchant's registered H5 domain; the simulator's one registered domain is
 * the service's own (PUBLIC_BASE_URL), so it is never an open redirect.
 */
function safeRedirect(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin === new URL(publicBaseUrl()).origin ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The payer page's Pay button (a plain form POST): pays, sends the notification, then, for h5 with a redirect_url,
 * sends the payer there (as WeChat does); else back to the payer page. An h5 payment is refused, as WeChat refuses
 * it, when its h5_url (`package`) has lapsed or the phone's address is not the order's payer_client_ip.
 */
export async function handlePayerConfirm(request: Request, payId: string, db: Database = getDb()): Promise<Response> {
  const form = new URLSearchParams(await request.text());
  const redirect = safeRedirect(form.get('redirect_url') ?? undefined);
  const lang = form.get('lang') === 'zh' ? 'zh' : 'en';
  const page = `/sandbox/wechat/pay/${encodeURIComponent(payId)}?lang=${lang}`;
  try {
    const found = await findByPayId(db, payId);
    const refusal = found ? h5VisitRefusal(found, { package: form.get('package'), payerIp: visitorIp(request.headers) }, new Date()) : undefined;
    if (found && found.tradeState === 'NOTPAY' && refusal) {
      const t = await areaTranslator(lang === 'zh' ? 'zh-CN' : 'en', 'sandbox');
      throw new SandboxWechatPayRefused(t(`wechat.refusals.${refusal}`));
    }
    await paySandboxWechatOrder(db, { payId });
    return new Response(null, { status: 303, headers: { location: redirect ?? `${page}&paid=1` } });
  } catch (error) {
    if (!(error instanceof SandboxWechatPayRefused)) throw error;
    return new Response(null, { status: 303, headers: { location: `${page}&refused=${encodeURIComponent(error.message)}` } });
  }
}
