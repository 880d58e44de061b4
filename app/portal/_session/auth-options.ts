import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { authenticateAccount, type AuthenticationResult } from '@/lib/accounts/authenticate-account';
import { authenticateWithPasskey } from '@/lib/accounts/passkey-sign-in';
import { portalAuthSecret, sessionCookiesSecure } from '@/lib/accounts/auth-secret';
import { clientAddressFrom } from '@/lib/accounts/client-address';
import { endAccountSessions, openAccountSession } from '@/lib/accounts/account-sessions';
import { getDb } from '@/lib/db/client';
import { publicBaseUrl } from '@/lib/orders/identifiers';

/** Raised by authorize() when the throttle refuses; next-auth hands its message to the sign-in form as `error`. */
export const THROTTLED_ERROR = 'Throttled';
/** Raised when the account's daily cap of attempts is reached: only the end of the day or an operator's unlock lets it in. */
export const LOCKED_ERROR = 'AccountLocked';
/** The password was right; the account's authenticator code (or a recovery code) must come with it. */
export const SECOND_FACTOR_REQUIRED_ERROR = 'SecondFactorRequired';
export const SECOND_FACTOR_INVALID_ERROR = 'SecondFactorInvalid';
/** A passkey sign-in whose answer is not one of the service's passkeys', or answers an expired or used challenge. */
export const PASSKEY_INVALID_ERROR = 'PasskeyInvalid';

let options: NextAuthOptions | undefined;

/**
 * next-auth v4: credentials sign-in, JWT sessions (8 h) carrying the account id, role, session version and the id of
 * the session's row (account_sessions), without which no page or action honours the token; sign-out ends that row,
 * which ends the session on the server too.
 */
export function authOptions(): NextAuthOptions {
  // next-auth builds its redirects from NEXTAUTH_URL; the service's public base URL is the natural default.
  process.env.NEXTAUTH_URL ??= publicBaseUrl();
  options ??= {
    secret: portalAuthSecret(),
    session: { strategy: 'jwt', maxAge: 8 * 60 * 60 },
    // Secure (and __Secure- prefixed) cookies whenever the service is public over https, whatever NEXTAUTH_URL says.
    useSecureCookies: sessionCookiesSecure(),
    events: {
      async signOut({ token }) {
        if (typeof token?.accountId === 'number' && typeof token.sessionId === 'string') {
          await endAccountSessions(getDb(), { accountId: token.accountId, only: token.sessionId, now: new Date() });
        }
      },
    },
    pages: { signIn: '/portal/sign-in', error: '/portal/sign-in' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        // `passkey` alone: a sign-in with a passkey (passkey-sign-in.ts); `code` may carry a passkey's answer too.
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' }, code: { label: 'Code', type: 'text' }, passkey: { label: 'Passkey', type: 'text' } },
        async authorize(credentials, req) {
          const email = typeof credentials?.email === 'string' ? credentials.email : '';
          const password = typeof credentials?.password === 'string' ? credentials.password : '';
          const code = typeof credentials?.code === 'string' && credentials.code.trim() !== '' ? credentials.code.trim() : undefined;
          const passkey = typeof credentials?.passkey === 'string' && credentials.passkey !== '' ? credentials.passkey : undefined;
          if (!passkey && (!email || !password)) return null;
          const clientAddress = clientAddressFrom(req.headers?.['x-forwarded-for']);
          const now = new Date();
          const result: AuthenticationResult = passkey
            ? await authenticateWithPasskey(getDb(), { answer: passkey, clientAddress, now })
            : await authenticateAccount(getDb(), { email, password, secondFactor: code, clientAddress, now });
          if (!result.ok) {
            if (result.reason === 'passkey_invalid') throw new Error(PASSKEY_INVALID_ERROR);
            if (result.reason === 'throttled') throw new Error(THROTTLED_ERROR);
            if (result.reason === 'locked') throw new Error(LOCKED_ERROR);
            if (result.reason === 'second_factor_required') throw new Error(SECOND_FACTOR_REQUIRED_ERROR);
            if (result.reason === 'second_factor_invalid') throw new Error(SECOND_FACTOR_INVALID_ERROR);
            return null;
          }
          const { account } = result;
          const userAgent = req.headers?.['user-agent'];
          const sessionId = await openAccountSession(getDb(), {
            accountId: account.id,
            sessionVersion: account.sessionVersion,
            userAgent: typeof userAgent === 'string' ? userAgent : undefined,
            clientAddress,
            now,
            secondFactorAnswered: account.secondFactorAnswered,
          });
          return { id: String(account.id), email: account.email, accountId: account.id, role: account.role, sessionVersion: account.sessionVersion, sessionId };
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.accountId = user.accountId;
          token.role = user.role;
          token.sessionVersion = user.sessionVersion;
          token.sessionId = user.sessionId;
        }
        return token;
      },
      session({ session, token }) {
        session.accountId = token.accountId ?? 0;
        session.role = token.role ?? 'merchant';
        session.sessionVersion = token.sessionVersion ?? -1;
        session.sessionId = token.sessionId ?? '';
        return session;
      },
    },
  };
  return options;
}
