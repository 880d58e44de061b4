import type { AbstractIntlMessages } from 'use-intl/core';
import chineseDomainCatalogue from '../../messages/zh-CN/domain.json';
import { teamRoleName } from '../accounts/team-roles';
import type { TeamRole } from '../db/schema/team-role-names';
import { domainMessage } from '../errors/domain-message';
import { domainTranslator, englishText } from '../i18n/domain-translator';
import { formatInZone } from '../i18n/time-zone';
import type { MailMessage } from './send-mail';

const chineseText = domainTranslator('zh-CN', chineseDomainCatalogue as AbstractIntlMessages);

/**
 * The e-mail of a team invitation: who invites whom into which merchant's team, in which role, the one-time link and
 * until when it works (in the merchant's time zone), in Chinese and in English (the person's language is not known
 * yet). It says what to do if the invitation was not expected: nothing happens without the link.
 */
export function invitationMail(input: { to: string; inviter: string; merchantName: string; role: TeamRole; link: string; expiresAt: Date; timeZone: string }): MailMessage {
  const subject = domainMessage('accounts.invitationMail.subject', { inviter: input.inviter, merchant: input.merchantName });
  const body = domainMessage('accounts.invitationMail.body', {
    inviter: input.inviter,
    merchant: input.merchantName,
    role: teamRoleName(input.role),
    link: input.link,
    expires: `${formatInZone(input.expiresAt, input.timeZone)} (${input.timeZone})`,
  });
  return {
    to: input.to,
    subject: `${chineseText(subject)} / ${englishText(subject)}`,
    text: `${chineseText(body)}\n\n----\n\n${englishText(body)}\n`,
  };
}
