import type { Database } from '../db/client';
import { reviewCredential, setCredentialEnabled, submitAlipayCredential, submitWechatCredential, type CredentialChannel, type CredentialSummary } from '../credentials/credentials';
import { InvalidCredential } from '../credentials/errors';
import { SandboxCredentialUnavailable, type SandboxCredentialProvider } from '../credentials/sandbox-credential-providers';
import { findMerchantForSigning } from '../merchants/merchants';
import { databaseSandboxMode } from '../sandbox/database-sandbox-mode';
import { sandboxEnabled } from '../sandbox/sandbox-enabled';
import { InputRejected, type CliCommand } from './command';
import { cliActor } from './operator';
import { SANDBOX_CREDENTIAL_PROVIDERS } from './sandbox-credentials';

const CHANNELS: readonly CredentialChannel[] = ['ALIPAY', 'WECHAT'];

const addUsage = `usage: npm run admin -- credential add --app-id <appId> --channel ALIPAY|WECHAT --sandbox [--approve] [--enable] [--json]

Adds an upstream credential to a merchant, bound to the built-in simulator's application (development and tests;
refused where the sandbox is off). Merchants submit their real credentials in the portal. The credential is
submitted as the portal does (audited), then reviewed and switched on as asked: it is usable by orders only with
both --approve and --enable.

  --app-id <appId>   the merchant's AppId
  --channel <name>   ALIPAY or WECHAT
  --sandbox          use the simulator's application keys (required)
  --approve          approve it at once (as operator $OPERATOR)
  --enable           leave it enabled (without it the new credential is disabled)
  --json             print one JSON object: {"credentialId","merchantId","channel","upstreamAppId","reviewStatus","enabled","usable"}`;

/** Submits the simulator's credential for the merchant, then approves / disables it as asked, each step audited. */
export async function addSandboxCredential(
  db: Database,
  input: { appId: string; channel: CredentialChannel; approve: boolean; enable: boolean; actor: string; providers?: Readonly<Partial<Record<CredentialChannel, SandboxCredentialProvider>>> },
): Promise<CredentialSummary> {
  if ((await databaseSandboxMode(db)) === 'off') {
    throw new InputRejected('this database is not in sandbox mode: its service runs with the sandbox off (production without SANDBOX_ENABLED=true)');
  }
  const provider = (input.providers ?? SANDBOX_CREDENTIAL_PROVIDERS)[input.channel];
  if (!provider) throw new SandboxCredentialUnavailable(input.channel);
  const found = await findMerchantForSigning(db, input.appId);
  if (!found) throw new InputRejected(`merchant not found: ${input.appId}`);
  const merchantId = found.merchant.id;
  const offered = await provider(db);
  const now = new Date();
  let summary =
    offered.channel === 'ALIPAY'
      ? await submitAlipayCredential(db, { merchantId, actor: input.actor, now, credential: offered.credential })
      : await submitWechatCredential(db, { merchantId, actor: input.actor, now, credential: offered.credential });
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
  usage: addUsage,
  options: { 'app-id': { type: 'string' }, channel: { type: 'string' }, sandbox: { type: 'boolean' }, approve: { type: 'boolean' }, enable: { type: 'boolean' } },
  prepare(args) {
    args.expectPositionals();
    const appId = args.required('app-id');
    const channel = args.required('channel') as CredentialChannel;
    if (!CHANNELS.includes(channel)) args.fail(`option --channel must be ALIPAY or WECHAT, got ${JSON.stringify(channel)}`);
    if (!args.flag('sandbox')) args.fail('only sandbox credentials are added here (--sandbox); merchants submit real ones in the portal');
    if (!sandboxEnabled()) args.fail('the sandbox is off here (NODE_ENV=production without SANDBOX_ENABLED=true)');
    const approve = args.flag('approve');
    const enable = args.flag('enable');
    const actor = cliActor();
    return async (db) => {
      let credential: CredentialSummary;
      try {
        credential = await addSandboxCredential(db, { appId, channel, approve, enable, actor });
      } catch (error) {
        if (error instanceof SandboxCredentialUnavailable || error instanceof InvalidCredential) throw new InputRejected(error.message);
        throw error;
      }
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
