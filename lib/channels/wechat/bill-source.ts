import { createHash } from 'node:crypto';
import { createGunzip } from 'node:zlib';
import { Transform } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { upstreamCredentials } from '../../db/schema';
import { usableCredentialOf } from '../../credentials/find-usable-credential';
import { BillFormatError, type UpstreamRow } from '../../reconciliation/bill-row';
import type { ReconciliationScope, ReconciliationSource } from '../../reconciliation/bill-source';
import { credentialScopes } from '../../reconciliation/credential-scopes';
import { boundedBody } from '../../reconciliation/download';
import { textLines } from '../../reconciliation/text-lines';
import { callWechat, WechatUpstreamError } from './client';
import { wechatConfig } from './config';
import { authorizationHeader } from './signing';
import { wechatAccountFor } from './platform-certificates';
import { wechatBillRows } from './trade-bill';

interface TradeBillAnswer {
  hash_type?: unknown;
  hash_value?: unknown;
  download_url?: unknown;
}

/**
 * WECHAT's reconciliation: the daily trade bill (GET /v3/bill/tradebill, bill_type=ALL, tar_type=GZIP; the answer
 * verified) of each merchant number the credentials use; the file downloaded with a signed request from its
 * download_url (valid 30 s), gunzipped and read line by line while its SHA1 is computed, which must equal the
 * answer's hash_value once the file ends (else the run fails and its rows are discarded). NO_STATEMENT_EXIST for a
 * day that has ended means WeChat had no trade that day: an empty bill.
 */
async function* rows(db: Database, scope: ReconciliationScope, day: string, signal: AbortSignal): AsyncGenerator<UpstreamRow> {
  const config = wechatConfig();
  const [row] = await db.select().from(upstreamCredentials).where(eq(upstreamCredentials.id, scope.credentialId!)).limit(1);
  if (!row) throw new WechatUpstreamError(`credential ${scope.credentialId} is gone`);
  const account = await wechatAccountFor(db, usableCredentialOf(row), config);
  let answer: TradeBillAnswer;
  try {
    answer = (await callWechat(config, account, { operation: 'bill', method: 'GET', pathWithQuery: `/v3/bill/tradebill?bill_date=${day}&bill_type=ALL&tar_type=GZIP` })).json as TradeBillAnswer;
  } catch (error) {
    if (error instanceof WechatUpstreamError && error.details.code === 'NO_STATEMENT_EXIST') return;
    throw error;
  }
  if (answer.hash_type !== 'SHA1' || typeof answer.hash_value !== 'string' || typeof answer.download_url !== 'string') throw new WechatUpstreamError('the tradebill answer lacks hash_type SHA1, hash_value or download_url');
  const url = new URL(answer.download_url);
  // The download is authorised with our signature: it goes to WeChat's own host only.
  if (url.origin !== new URL(config.baseUrl).origin) throw new WechatUpstreamError(`download_url ${url.origin} is not WeChat Pay's host`);
  const pathWithQuery = `${url.pathname.slice(url.pathname.indexOf('/v3/'))}${url.search}`;
  const authorization = authorizationHeader({ mchId: account.mchId, serialNo: account.merchantCertSerial, privateKey: account.privateKey }, { method: 'GET', pathWithQuery, body: '', timestamp: Math.floor(Date.now() / 1000) });
  const response = await fetch(url, { headers: { authorization, accept: '*/*' }, redirect: 'error', signal: AbortSignal.any([signal, AbortSignal.timeout(Math.max(config.timeoutMs, 60_000))]) });
  if (!response.ok) throw new WechatUpstreamError(`the bill download answered HTTP ${response.status}`);
  const hash = createHash('sha1');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  yield* wechatBillRows(textLines(boundedBody(response).pipe(createGunzip()).pipe(hashing), 'utf-8'));
  const digest = hash.digest('hex');
  if (digest !== answer.hash_value.toLowerCase()) throw new BillFormatError(`the bill's SHA1 ${digest} is not the hash_value ${answer.hash_value} WeChat Pay announced`);
}

export const wechatReconciliation: ReconciliationSource = {
  scopes: (db) => credentialScopes(db, 'WECHAT', (credential) => credential.mchId ?? credential.upstreamAppId),
  rows,
};
