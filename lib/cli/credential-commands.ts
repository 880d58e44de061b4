import type { CredentialSummary, ReviewStatus } from '../credentials/credentials';
import { REJECTION_REASON_MAX_LENGTH } from '../credentials/review-rules';
import type { ParsedArgs } from './args';
import { type CliCommand, type CommandOutput } from './command';
import { credentialAdd } from './credential-add-command';
import { cliActor } from './operator';

/** Operators review merchants' upstream credentials here or in the console (/operator/credentials): the same domain functions. */

const JSON_FIELDS = '{"id","merchantId","channel","upstreamAppId","reviewStatus","rejectionReason","enabled","usable"}';

function credentialJson(credential: CredentialSummary): Record<string, unknown> {
  return {
    id: credential.id,
    merchantId: credential.merchantId,
    channel: credential.channel,
    upstreamAppId: credential.upstreamAppId,
    reviewStatus: credential.reviewStatus,
    rejectionReason: credential.rejectionReason,
    enabled: credential.enabled,
    usable: credential.usable,
  };
}

function credentialLine(credential: CredentialSummary): string {
  const review = credential.reviewStatus === 'rejected' ? `rejected (${credential.rejectionReason})` : credential.reviewStatus;
  return `credential ${credential.id}: ${credential.channel} ${credential.upstreamAppId} of merchant ${credential.merchantId}, ${review}, ${credential.enabled ? 'enabled' : 'disabled'}${credential.usable ? ', usable' : ''}`;
}

function parseId(args: ParsedArgs): number {
  const text = args.required('id');
  if (!/^[1-9]\d{0,9}$/.test(text) || Number(text) > 2_147_483_647) args.fail(`option --id must be a credential id (a positive integer), got ${JSON.stringify(text)}`);
  return Number(text);
}

function parseReason(args: ParsedArgs, required: boolean): string | undefined {
  const reason = args.optional('reason')?.trim();
  if (required && !reason) args.fail('option --reason is required and must not be empty');
  if (reason && reason.length > REJECTION_REASON_MAX_LENGTH) args.fail(`option --reason must be at most ${REJECTION_REASON_MAX_LENGTH} characters`);
  return reason || undefined;
}

async function asCredentialAction(action: () => Promise<CredentialSummary>): Promise<CommandOutput> {
  const credential = await action();
  return { json: credentialJson(credential), text: credentialLine(credential) };
}

function usage(action: string, what: string, reason: 'required' | 'optional'): string {
  return `usage: npm run admin -- credential ${action} --id <credentialId> ${reason === 'required' ? '--reason <text>' : '[--reason <text>]'} [--json]

${what}

  --id <credentialId>  the credential's id (the contract's credentialId)
  --reason <text>      ${reason === 'required' ? 'why (shown to the merchant in the portal)' : 'why (written to the audit log)'}
  --json               print one JSON object: ${JSON_FIELDS}`;
}

function command(action: 'approve' | 'reject' | 'enable' | 'disable' | 'delete', summary: string, what: string): CliCommand {
  const text = usage(action, what, action === 'reject' ? 'required' : 'optional');
  return {
    group: 'credential',
    action,
    summary,
    usage: text,
    options: { id: { type: 'string' }, reason: { type: 'string' } },
    prepare(args) {
      args.expectPositionals();
      const credentialId = parseId(args);
      const reason = parseReason(args, action === 'reject');
      const actor = cliActor();
      return (db) =>
        asCredentialAction(async () => {
          const { deleteCredential, reviewCredential, setCredentialEnabled } = await import('../credentials/credentials');
          const now = new Date();
          if (action === 'approve' || action === 'reject') return reviewCredential(db, { credentialId, decision: action, reason, actor, now });
          if (action === 'delete') return deleteCredential(db, { credentialId, scope: { kind: 'operator' }, reason, actor, now });
          return setCredentialEnabled(db, { credentialId, scope: { kind: 'operator' }, enabled: action === 'enable', reason, actor, now });
        });
    },
  };
}

const REVIEW_STATUSES: readonly ReviewStatus[] = ['pending', 'approved', 'rejected'];

const listUsage = `usage: npm run admin -- credential list [--status pending|approved|rejected] [--json]

Lists the merchants' upstream credentials that are not deleted (never their secrets), oldest first.

  --status <status>  only those with this review status
  --json             print one JSON object: {"credentials":[${JSON_FIELDS}]}`;

export const credentialList: CliCommand = {
  group: 'credential',
  action: 'list',
  summary: 'list upstream credentials (the review queue with --status pending)',
  usage: listUsage,
  options: { status: { type: 'string' } },
  prepare(args) {
    args.expectPositionals();
    const status = args.optional('status');
    if (status !== undefined && !REVIEW_STATUSES.includes(status as ReviewStatus)) {
      args.fail(`option --status must be one of ${REVIEW_STATUSES.join(', ')}, got ${JSON.stringify(status)}`);
    }
    return async (db) => {
      const { listAllCredentials } = await import('../credentials/credentials');
      const credentials = await listAllCredentials(db, { reviewStatus: status as ReviewStatus | undefined });
      return {
        json: { credentials: credentials.map(credentialJson) },
        text: credentials.length === 0 ? 'no credentials' : credentials.map(credentialLine).join('\n'),
      };
    };
  },
};

export const credentialCommands: CliCommand[] = [
  credentialList,
  credentialAdd,
  command('approve', 'approve a merchant\'s upstream credential', 'Approves the credential: once enabled too, orders may use it.'),
  command('reject', 'reject a merchant\'s upstream credential with a reason', 'Rejects the credential; the merchant sees the reason in the portal.'),
  command('enable', 'enable an upstream credential', 'Enables the credential (orders use it only when it is approved too).'),
  command('disable', 'disable an upstream credential', 'Disables the credential: orders can no longer use it.'),
  command('delete', 'delete an upstream credential (soft)', 'Deletes the credential: never usable nor listed again (the row stays for the orders bound to it).'),
];
