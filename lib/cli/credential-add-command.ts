import type { Database } from '../db/client';
import { CREDENTIAL_CHANNEL_NAMES } from '../channels/channel-names';
import type { SandboxCredentialProvider } from '../credentials/channel-credentials';
import type { CredentialChannel, CredentialSummary } from '../credentials/credentials';
import { sandboxEnabled } from '../sandbox/sandbox-enabled';
import { actionRefused } from '../errors/domain-error';
import { type CliCommand } from './command';
import { cliActor } from './operator';

const channelNames = (): readonly string[] => CREDENTIAL_CHANNEL_NAMES;

const addUsage = () => `usage: npm run admin -- credential add --app-id <appId> --channel ${channelNames().join('|')} --sandbox [--approve] [--enable] [--json]

Adds an upstream credential to a merchant, bound to the built-in simulator's application (development and tests;
refused where the sandbox is off). Merchants submit their real credentials in the portal. The credential is
submitted as the portal does (audited), then reviewed and switched on as asked: it is usable by orders only with
both --approve and --enable.

  --app-id <appId>   the merchant's AppId
  --channel <name>   ${channelNames().join(' or ')}
  --sandbox          use the simulator's application keys (required)
  --approve          approve it at once (as operator $OPERATOR)
  --enable           leave it enabled (without it the new credential is disabled)
  --json             print one JSON object: {"credentialId","merchantId","channel","upstreamAppId","reviewStatus","enabled","usable"}`;

/**
 * Submits the simulator's credential for the merchant, then approves / disables it as asked, each step audited.
 * `providers` replaces the channels' own simulators (tests).
 */
export async function addSandboxCredential(
  db: Database,
  input: { appId: string; channel: CredentialChannel; approve: boolean; enable: boolean; actor: string; providers?: Readonly<Record<string, SandboxCredentialProvider | undefined>> },
): Promise<CredentialSummary> {
  const [{ credentialChannelNamed }, { databaseSandboxMode }, { reviewCredential, setCredentialEnabled, submitCredential }, { sandboxCredentialUnavailable }, { findMerchantForSigning }] = await Promise.all([
    import('../channels/index'),
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

export const credentialAdd: CliCommand = {
  group: 'credential',
  action: 'add',
  summary: 'add a sandbox upstream credential to a merchant (development, tests)',
  get usage() {
    return addUsage();
  },
  options: { 'app-id': { type: 'string' }, channel: { type: 'string' }, sandbox: { type: 'boolean' }, approve: { type: 'boolean' }, enable: { type: 'boolean' } },
  prepare(args) {
    args.expectPositionals();
    const appId = args.required('app-id');
    const channel: CredentialChannel = args.required('channel');
    if (!channelNames().includes(channel)) args.fail(`option --channel must be ${channelNames().join(' or ')}, got ${JSON.stringify(channel)}`);
    if (!args.flag('sandbox')) args.fail('only sandbox credentials are added here (--sandbox); merchants submit real ones in the portal');
    if (!sandboxEnabled()) args.fail('the sandbox is off here (NODE_ENV=production without SANDBOX_ENABLED=true)');
    const approve = args.flag('approve');
    const enable = args.flag('enable');
    const actor = cliActor();
    return async (db) => {
      const credential = await addSandboxCredential(db, { appId, channel, approve, enable, actor });
      return {
        json: {
          credentialId: credential.id,
          merchantId: credential.merchantId,
          channel: credential.channel,
          upstreamAppId: credential.upstreamAppId,
          reviewStatus: credential.reviewStatus,
          enabled: credential.enabled,
          usable: credential.usable,
        },
        text: `credential ${credential.id}: ${credential.channel} sandbox app ${credential.upstreamAppId} for merchant ${appId}, ${credential.reviewStatus}, ${credential.enabled ? 'enabled' : 'disabled'}${credential.usable ? ', usable' : ''}`,
      };
    };
  },
};
