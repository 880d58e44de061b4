import { getDb } from '../../lib/db/client';
import { handleGateway } from '../../sandbox/alipay/gateway';
import { handleBillDownload } from '../../sandbox/alipay/bill';
import { alipaySandboxKeys } from '../../lib/channels/alipay/sandbox-keys';
import { handleSandboxWechatApi } from '../../sandbox/wechat/http-api';
import { handleSandboxYhtApi } from '../../sandbox/yht/http-api';
import { startTestApp, type TestApp } from '../open-api-client';
import { serveWebHandler } from '../web-handler-server';

export const SUBMIT = '/v1/api/open/order/submit';
export const QUERY = '/v1/api/open/order/query';
export const ALIPAY_CALLBACK = '/v1/api/callback/alipay';
export const WECHAT_CALLBACK = '/v1/api/callback/wechat';
export const YHT_CALLBACK = '/v1/api/callback/yht';

export interface SandboxTestBed {
  app: TestApp;
  /** The Alipay simulator's gateway (ALIPAY_GATEWAY_URL). */
  alipayGatewayUrl: string;
  /** The WeChat Pay simulator's API base (WECHAT_API_BASE_URL). */
  wechatSandboxUrl: string;
  /** The YHT simulator's base (YHT_BASE_URL; its API is under /api). */
  yhtSandboxUrl: string;
  close(): Promise<void>;
}

/**
 * The one test bed with the upstream simulators: the service's test server plus every channel's simulator on
 * loopback, wired as in development: the adapters call the simulators and the simulators notify the service
 * (PUBLIC_BASE_URL).
 */
export async function startSandboxTestBed(): Promise<SandboxTestBed> {
  const app = await startTestApp();
  const alipay = await serveWebHandler(async (request, path) => {
    if (path.join('/') === 'gateway.do') return handleGateway(request, getDb());
    if (path.join('/') === 'bill/download') return handleBillDownload(request, getDb(), await alipaySandboxKeys(getDb()));
    return new Response('not found', { status: 404 });
  }, '/sandbox/alipay');
  const wechat = await serveWebHandler((request, segments) => handleSandboxWechatApi(request, segments, getDb()), '/sandbox/wechat');
  const yht = await serveWebHandler((request, path) => handleSandboxYhtApi(request, path), '/sandbox/yht/api');
  const bed = {
    app,
    alipayGatewayUrl: `${alipay.url}/gateway.do`,
    wechatSandboxUrl: wechat.url,
    yhtSandboxUrl: yht.url.replace(/\/api$/, ''),
    async close() {
      await Promise.all([app.close(), alipay.close(), wechat.close(), yht.close()]);
    },
  };
  process.env.PUBLIC_BASE_URL = app.baseUrl;
  process.env.ALIPAY_GATEWAY_URL = bed.alipayGatewayUrl;
  process.env.WECHAT_API_BASE_URL = bed.wechatSandboxUrl;
  process.env.YHT_BASE_URL = bed.yhtSandboxUrl;
  return bed;
}
