import { getDb } from '@/lib/db/client';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { alipaySandboxKeys } from '@/lib/channels/alipay/sandbox-keys';
import { handleBillDownload } from '@/sandbox/alipay/bill';

export const dynamic = 'force-dynamic';

/** The simulated Alipay bill file (the bill_download_url of alipay.data.dataservice.bill.downloadurl.query). */
export async function GET(request: Request) {
  if (!sandboxEnabled()) return new Response('not found', { status: 404 });
  const db = getDb();
  return handleBillDownload(request, db, await alipaySandboxKeys(db));
}
