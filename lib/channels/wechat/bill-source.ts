import { createHash } from 'node:crypto';
import { createGunzip } from 'node:zlib';
import { Transform } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { upstreamCredentials } from '../../db/schema';
import { usableCredentialOf } from '../../credentials/find-usable-credential';
import { BillFormatError, rowsOfFile, type UpstreamRow } from '../../reconciliation/bill-row';
import { BillUnavailable, type ReconciliationScope, type ReconciliationSource } from '../../reconciliation/bill-source';
import { beijingDayBounds } from '../../reconciliation/beijing-day';
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
 * WeChat Pay makes the bill of a day after 10:00 the next day (Beijing time); before, it answers STATEMENT_CREATING
 * (or NO_STATEMENT_EXIST), which says nothing about the day. Its FAQ advises asking again every 30 minutes.
 */
const BILL_MADE_AFTER_MS = 34 * 3600_000;
const RETRY_SPACING_MS = 30 * 60_000;

function billDueAt(day: string): Date {
  return new Date(beijingDayBounds(day)!.start.getTime() + BILL_MADE_AFTER_MS);
}

/**
 * WECHAT's reconciliation: the daily trade bill (GET /v3/bill/tradebill, bill_type=ALL, tar_type=GZIP; the answer
 * verified) of each merchant number the credentials use; the file downloaded with a signed request from its
 * download_url (valid 30 s), gunzipped and read line by line while its SHA1 is computed, which must equal the
 * answer's hash_value once the file ends (else the run fails and its rows are discarded). STATEMENT_CREATING is a
 * bill not made yet; NO_STATEMENT_EXIST once the bill is due (10:00 the next day) means WeChat had no trade that day:
 * an empty bill; before, it is not made yet either.
 */
async function* rows(db: Database, scope: ReconciliationScope, day: string, signal: AbortSignal, now: Date): AsyncGenerator<UpstreamRow> {
  const config = wechatConfig();
  const [row] = await db.select().from(upstreamCredentials).where(eq(upstreamCredentials.id, scope.credentialId!)).limit(1);
  if (!row) throw new WechatUpstreamError(`credential ${scope.credentialId} is gone`);
  const account = await wechatAccountFor(db, usableCredentialOf(row), config);
  const file = `WeChat Pay trade bill ${day} of mchid ${account.mchId} (bill_type ALL)`;
  let answer: TradeBillAnswer;
  try {
    answer = (await callWechat(config, account, { operation: 'bill', method: 'GET', pathWithQuery: `/v3/bill/tradebill?bill_date=${day}&bill_type=ALL&tar_type=GZIP` })).json as TradeBillAnswer;
  } catch (error) {
    const code = error instanceof WechatUpstreamError ? error.details.code : undefined;
    if (code === 'STATEMENT_CREATING') throw new BillUnavailable(`${file}: not made yet (STATEMENT_CREATING); WeChat Pay makes it after 10:00 Beijing time the next day`);
    if (code === 'NO_STATEMENT_EXIST' && now.getTime() < billDueAt(day).getTime()) throw new BillUnavailable(`${file}: not made yet (NO_STATEMENT_EXIST before 10:00 Beijing time the next day)`);
    if (code === 'NO_STATEMENT_EXIST') return;
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
  yield* rowsOfFile(file, wechatBillRows(textLines(boundedBody(response).pipe(createGunzip()).pipe(hashing), 'utf-8')));
  const digest = hash.digest('hex');
  if (digest !== answer.hash_value.toLowerCase()) throw new BillFormatError(`${file}: its SHA1 ${digest} is not the hash_value ${answer.hash_value} WeChat Pay announced`);
}

/** WeChat Pay makes its bills per merchant number (对账单是以商户号维度来生成的), whatever appid a trade was made with. */
export const wechatReconciliation: ReconciliationSource = {
  scopes: (db) => credentialScopes(db, 'WECHAT', (credential) => credential.mchId ?? credential.upstreamAppId),
  rows,
  refundDay: 'accepted',
  nextAttemptAt: (day, lastAttempt) => new Date(Math.max(billDueAt(day).getTime(), lastAttempt.getTime() + RETRY_SPACING_MS)),
  // The API the bill is asked from (config.ts): the sandbox's when unset.
  sandboxDefault: { setting: 'WECHAT_API_BASE_URL' },
};
