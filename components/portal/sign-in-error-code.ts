export const SIGN_IN_ERROR_CODES = ['SessionExpired', 'NotMerchant', 'NotOperator', 'CredentialsSignin', 'Throttled', 'AccountLocked', 'SecondFactorRequired', 'SecondFactorInvalid', 'PasskeyInvalid', 'PasskeyFailed'] as const;
export type SignInErrorCode = (typeof SIGN_IN_ERROR_CODES)[number];

/**
 * next-auth's error code as one of ours: throttling is told apart, anything else is a wrong email or password. A plain
 * module (not 'use client'): the sign-in page reads it on the server, the form in the browser.
 */
export function signInErrorCode(code: string | null | undefined): SignInErrorCode {
  return (SIGN_IN_ERROR_CODES as readonly string[]).includes(code ?? '') ? (code as SignInErrorCode) : 'CredentialsSignin';
}
