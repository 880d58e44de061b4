-- Passkeys (WebAuthn credentials) as a second factor and as a sign-in of their own, and the one-time challenges of
-- their ceremonies. Nothing changes for an account until it adds one.
CREATE TABLE "account_passkeys" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "account_id" bigint NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
  "credential_id" text NOT NULL UNIQUE,
  "public_key" text NOT NULL,
  "sign_count" bigint DEFAULT 0 NOT NULL,
  "transports" text DEFAULT '' NOT NULL,
  "name" text NOT NULL,
  "backed_up" boolean DEFAULT false NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  "last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "account_passkeys_account" ON "account_passkeys" ("account_id");
--> statement-breakpoint
CREATE TABLE "webauthn_challenges" (
  "id" text PRIMARY KEY NOT NULL,
  "account_id" bigint REFERENCES "accounts"("id") ON DELETE CASCADE,
  "purpose" text NOT NULL,
  "challenge" text NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  CONSTRAINT "webauthn_challenges_purpose_check" CHECK ("purpose" IN ('register', 'sign_in', 'second_factor', 'step_up'))
);
--> statement-breakpoint
CREATE INDEX "webauthn_challenges_expiry" ON "webauthn_challenges" ("expires_at");
