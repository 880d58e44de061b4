import type { Database } from '../db/client';
import { actionRefused } from '../errors/domain-error';
import type { SandboxCredentialProvider } from '../credentials/channel-credentials';
import type { CredentialChannel, CredentialSummary } from '../credentials/credentials';

/**
 * Submits the simulator's credential for the merchant, then approves / disables it as asked, each step audited: the
 * operator CLI's `credential add --sandbox` and the portal's test mode (a sandboxed service only) both use it.
 * `providers` replaces the channels' own simulators (tests).
 */
export async function addSandboxCredential(
  db: Database,
  input: { appId: string; channel: CredentialChannel; approve: boolean; enable: boolean; actor: string; providers?: Readonly<Record<string, SandboxCredentialProvider | undefined>> },
): Promise<CredentialSummary> {
  const [{ credentialChannelNamed }, { databaseSandboxMode }, { reviewCredential, setCredentialEnabled, submitCredential }, { sandboxCredentialUnavailable }, { findMerchantForSigning }] = await Promise.all([
    import('./index'),
    import('../sandbox/database-sandbox-mode'),
    import('../credentials/credentials'),
    import('../credentials/errors'),
    import('../merchants/merchants'),
  ]);
  if ((await databaseSandboxMode(db)) === 'off') {
    throw actionRefused('this database is not in sandbox mode: its service runs with the sandbox off (production without SANDBOX_ENABLED=true)');
  }
  const channel = credentialChannelNamed(input.channel);
  const provider = input.providers ? input.providers[input.channel] : channel.credentials.sandbox;
  if (!provider) throw sandboxCredentialUnavailable(input.channel);
  const found = await findMerchantForSigning(db, input.appId);
  if (!found) throw actionRefused(`merchant not found: ${input.appId}`);
  const merchantId = found.merchant.id;
  const offered = await provider(db);
  const now = new Date();
  let summary = await submitCredential(db, channel, { merchantId, actor: input.actor, now, credential: offered });
  if (input.approve) summary = await reviewCredential(db, { credentialId: summary.id, decision: 'approve', actor: input.actor, now });
  if (!input.enable) {
    summary = await setCredentialEnabled(db, { credentialId: summary.id, scope: { kind: 'operator' }, enabled: false, actor: input.actor, reason: 'added without --enable', now });
  }
  return summary;
}
