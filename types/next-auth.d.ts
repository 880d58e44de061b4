import 'next-auth';
import 'next-auth/jwt';

/** What the portal keeps in its session token (see app/portal/_session/auth-options.ts). */
declare module 'next-auth' {
  interface User {
    accountId: number;
    role: 'merchant' | 'operator';
    sessionVersion: number;
    sessionId: string;
  }
  interface Session {
    accountId: number;
    role: 'merchant' | 'operator';
    sessionVersion: number;
    /** The account_sessions row this browser signed in as (lib/accounts/account-sessions.ts). */
    sessionId: string;
  }
}

declare module 'next-auth/jwt' {
  interface JWT {
    accountId?: number;
    role?: 'merchant' | 'operator';
    sessionVersion?: number;
    sessionId?: string;
  }
}
