import type { CliCommand } from '@/lib/cli/command';
import { sandboxWechatKeysOf } from '@/lib/channels/wechat/sandbox-keys';
import type { SandboxWechatKeysRow } from '@/lib/channels/wechat/schema';
import { rotateSandboxWechatCertificate, SANDBOX_WECHAT_MODES, setSandboxWechatMode, type SandboxWechatMode } from './signer';

function describeKeys(keys: SandboxWechatKeysRow) {
  const certificates = keys.platformCertificates.map(({ serial, effectiveTime, expireTime }) => ({ serial, effectiveTime, expireTime }));
  const newest = certificates.at(-1)?.serial;
  return {
    json: { mode: keys.mode, publicKeyId: keys.platformPublicKeyId, certificates, signingCertificate: newest ?? null },
    text: [`mode: ${keys.mode}`, `WeChat Pay public key: ${keys.platformPublicKeyId}`, ...certificates.map((certificate) => `platform certificate ${certificate.serial}${certificate.serial === newest ? ' (signs)' : ''} until ${certificate.expireTime}`)].join('\n'),
  };
}

const modeUsage = `usage: npm run sandbox -- wechat mode [--set public_key|certificate|both] [--json]

Shows, or sets, how the simulated WeChat Pay signs its answers and notifications: with the WeChat Pay public key
(public_key, new merchants; every request must send Wechatpay-Serial: PUB_KEY_ID_…), with platform certificates
(certificate; listed by GET /v3/certificates), or with either (both, a merchant migrating to the public key).
Credentials added for the sandbox afterwards carry the keys of the mode.`;

export const wechatMode: CliCommand = {
  group: 'wechat',
  action: 'mode',
  summary: "show or set the sandbox WeChat Pay's signing mode (public key, certificates, both)",
  usage: modeUsage,
  options: { set: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const wanted = args.optional('set');
    if (wanted !== undefined && !SANDBOX_WECHAT_MODES.includes(wanted as SandboxWechatMode)) args.fail(`option --set must be one of ${SANDBOX_WECHAT_MODES.join(', ')}`);
    return async (db) => describeKeys(wanted === undefined ? await sandboxWechatKeysOf(db) : await setSandboxWechatMode(db, wanted as SandboxWechatMode));
  },
};

const rotateUsage = `usage: npm run sandbox -- wechat rotate-certificate [--json]

Issues a new platform certificate, as WeChat Pay does before the current one expires: it signs from now on, the
previous one stays listed by GET /v3/certificates through the overlap. The service must download it on its own.`;

export const wechatRotateCertificate: CliCommand = {
  group: 'wechat',
  action: 'rotate-certificate',
  summary: 'issue a new sandbox WeChat Pay platform certificate (a rotation)',
  usage: rotateUsage,
  options: {},
  prepare(args) {
    args.expectPositionals();
    return async (db) => describeKeys(await rotateSandboxWechatCertificate(db));
  },
};
