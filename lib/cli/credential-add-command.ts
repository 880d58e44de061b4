import { CREDENTIAL_CHANNEL_NAMES } from '../channels/channel-names';
import { addSandboxCredential } from '../channels/add-sandbox-credential';
import type { CredentialChannel } from '../credentials/credentials';
import { sandboxEnabled } from '../sandbox/sandbox-enabled';
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

export { addSandboxCredential };

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
