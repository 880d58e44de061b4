-- Team members with roles: every existing merchant account becomes its merchant's owner (nothing else changes for it);
-- operators have no team role.
ALTER TABLE "accounts" ADD COLUMN "team_role" text;
--> statement-breakpoint
UPDATE "accounts" SET "team_role" = 'owner' WHERE "role" = 'merchant';
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_team_role_check" CHECK ((("role" = 'merchant') = ("team_role" IS NOT NULL)) AND ("team_role" IS NULL OR "team_role" IN ('owner', 'developer', 'finance', 'viewer')));
--> statement-breakpoint
CREATE TABLE "team_invitations" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "merchant_id" bigint NOT NULL REFERENCES "merchants"("id"),
  "email" text NOT NULL,
  "team_role" text NOT NULL CHECK ("team_role" IN ('owner', 'developer', 'finance', 'viewer')),
  "token_hash" text NOT NULL UNIQUE,
  "invited_by" text NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  "accepted_at" timestamp with time zone,
  "accepted_account_id" bigint REFERENCES "accounts"("id") ON DELETE SET NULL,
  "revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "team_invitations_merchant" ON "team_invitations" ("merchant_id", "created_at");
