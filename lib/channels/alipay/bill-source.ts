import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { upstreamCredentials } from '../../db/schema';
import { usableCredentialOf } from '../../credentials/find-usable-credential';
import { BillFormatError, rowsOfFile } from '../../reconciliation/bill-row';
import { BillUnavailable, type ReconciliationScope, type ReconciliationSource } from '../../reconciliation/bill-source';
import { credentialScopes } from '../../reconciliation/credential-scopes';
import { saveToTemporaryFile } from '../../reconciliation/download';
import { textLines } from '../../reconciliation/text-lines';
import { zipEntries } from '../../reconciliation/zip-entries';
import { alipaySdkFor, alipayTimestamp, AlipayUpstreamError } from './client';
import { alipayConfig } from './config';
import { alipayBillRows } from './trade-bill';

/** The detail file of the archive; the other one (…_业务明细(汇总).csv) is the summary. */
const DETAIL_FILE = /_业务明细\.csv$/;

/**
 * alipay.data.dataservice.bill.downloadurl.query (bill_type=trade) for the day, the answer's signature verified: the
 * URL of the day's bill, valid for 30 seconds. isp.bill_not_exist (today's bill, published T+1; a day too old) is
 * BillUnavailable.
 */
async function billDownloadUrl(scope: ReconciliationScope, db: Database, day: string): Promise<{ url: string; timeoutMs: number }> {
  const [row] = await db.select().from(upstreamCredentials).where(eq(upstreamCredentials.id, scope.credentialId!)).limit(1);
  if (!row) throw new AlipayUpstreamError(`credential ${scope.credentialId} is gone`);
  const credential = usableCredentialOf(row);
  if (!credential.upstreamPublicKey) throw new AlipayUpstreamError('the credential has no Alipay public key to verify the answer');
  const config = alipayConfig();
  let answer: Record<string, unknown>;
  try {
    answer = await alipaySdkFor(config, credential).exec(
      'alipay.data.dataservice.bill.downloadurl.query',
      { bizContent: { bill_type: 'trade', bill_date: day }, ...alipayTimestamp() },
      { validateSign: true },
    );
  } catch (error) {
    throw new AlipayUpstreamError(`alipay.data.dataservice.bill.downloadurl.query failed: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`);
  }
  if (answer.code !== '10000') {
    const refusal = `${String(answer.subCode ?? answer.code)} ${String(answer.subMsg ?? answer.msg ?? '')}`.trim().slice(0, 200);
    if (answer.subCode === 'isp.bill_not_exist') throw new BillUnavailable(`Alipay has no bill for ${day}: ${refusal}`);
    throw new AlipayUpstreamError(`alipay.data.dataservice.bill.downloadurl.query answered ${refusal}`);
  }
  if (typeof answer.billDownloadUrl !== 'string') throw new AlipayUpstreamError('the bill query answered no bill_download_url');
  return { url: answer.billDownloadUrl, timeoutMs: config.timeoutMs };
}

async function* rows(db: Database, scope: ReconciliationScope, day: string, signal: AbortSignal) {
  const { url, timeoutMs } = await billDownloadUrl(scope, db, day);
  // The URL lives 30 seconds: fetched at once; the archive is kept on disk while it is read.
  const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.any([signal, AbortSignal.timeout(Math.max(timeoutMs, 60_000))]) });
  if (!response.ok) throw new AlipayUpstreamError(`the bill download answered HTTP ${response.status}`);
  const file = await saveToTemporaryFile(response);
  try {
    const bill = `Alipay trade bill ${day} of ${scope.key}`;
    const entries = await zipEntries(file.path).catch((error: unknown) => {
      throw error instanceof BillFormatError ? new BillFormatError(`${bill}: ${error.message}`) : error;
    });
    const detail = entries.find((entry) => DETAIL_FILE.test(entry.name));
    if (!detail) throw new BillFormatError(`${bill}: the archive has no …_业务明细.csv detail file`);
    yield* rowsOfFile(`${bill}, ${detail.name}`, alipayBillRows(textLines(detail.open(), 'gbk')));
  } finally {
    await file.remove();
  }
}

/**
 * ALIPAY's reconciliation: the daily trade bill of each Alipay account (PID) the service's credentials use. The bill
 * covers the account, every app on it, so credentials of several apps on one PID (the credential's seller id) read it
 * once; a credential without one is taken as an account of its own, by its app id.
 */
export const alipayReconciliation: ReconciliationSource = {
  scopes: (db) => credentialScopes(db, 'ALIPAY', (row) => row.sellerId ?? row.upstreamAppId),
  rows,
  // The gateway the bill is downloaded through (config.ts): the sandbox's when unset.
  sandboxDefault: { setting: 'ALIPAY_GATEWAY_URL' },
};
