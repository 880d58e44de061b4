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

export interface UpstreamSimulators {
  /** The Alipay simulator's gateway (ALIPAY_GATEWAY_URL). */
  alipayGatewayUrl: string;
  /** The WeChat Pay simulator's API base (WECHAT_API_BASE_URL). */
  wechatSandboxUrl: string;
  /** The YHT simulator's base (YHT_BASE_URL; its API is under /api). */
  yhtSandboxUrl: string;
  /** The settings that point a service at them. */
  settings: { ALIPAY_GATEWAY_URL: string; WECHAT_API_BASE_URL: string; YHT_BASE_URL: string };
  close(): Promise<void>;
}

export interface SandboxTestBed extends Omit<UpstreamSimulators, 'settings'> {
  app: TestApp;
}

/** Every channel's upstream simulator on loopback, on the test's database. */
export async function startUpstreamSimulators(): Promise<UpstreamSimulators> {
  const alipay = await serveWebHandler(async (request, path) => {
    if (path.join('/') === 'gateway.do') return handleGateway(request, getDb());
    if (path.join('/') === 'bill/download') return handleBillDownload(request, getDb(), await alipaySandboxKeys(getDb()));
    return new Response('not found', { status: 404 });
  }, '/sandbox/alipay');
  const wechat = await serveWebHandler((request, segments) => handleSandboxWechatApi(request, segments, getDb()), '/sandbox/wechat');
  const yht = await serveWebHandler((request, path) => handleSandboxYhtApi(request, path), '/sandbox/yht/api');
  const urls = { alipayGatewayUrl: `${alipay.url}/gateway.do`, wechatSandboxUrl: wechat.url, yhtSandboxUrl: yht.url.replace(/\/api$/, '') };
  return {
    ...urls,
    settings: { ALIPAY_GATEWAY_URL: urls.alipayGatewayUrl, WECHAT_API_BASE_URL: urls.wechatSandboxUrl, YHT_BASE_URL: urls.yhtSandboxUrl },
    async close() {
      await Promise.all([alipay.close(), wechat.close(), yht.close()]);
    },
  };
}

/**
 * The one test bed with the upstream simulators: the service's test server plus every channel's simulator on
 * loopback, wired as in development: the adapters call the simulators and the simulators notify the service
 * (PUBLIC_BASE_URL).
 */
export async function startSandboxTestBed(): Promise<SandboxTestBed> {
  const app = await startTestApp();
  const { settings, close, ...simulators } = await startUpstreamSimulators();
  process.env.PUBLIC_BASE_URL = app.baseUrl;
  Object.assign(process.env, settings);
  return {
    app,
    ...simulators,
    async close() {
      await Promise.all([app.close(), close()]);
    },
  };
}
