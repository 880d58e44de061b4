'use server';

import { headers } from 'next/headers';
import { clientAddressFrom } from '@/lib/accounts/client-address';
import { acceptTeamInvitation } from '@/lib/accounts/team-invitations';
import { getDb } from '@/lib/db/client';
import { refusal, type ActionResult } from '../../_session/action-result';

/** The invited person's sign-up through the link: their account in the invited role; the form then sends them to sign in. */
export async function acceptInvitationAction(token: string, input: { password: string }): Promise<ActionResult<{ email: string }>> {
  try {
    const accepted = await acceptTeamInvitation(getDb(), { token, password: input?.password, clientAddress: clientAddressFrom((await headers()).get('x-forwarded-for')), now: new Date() });
    return { ok: true, data: accepted };
  } catch (error) {
    return refusal(error);
  }
}
