-- Each signed-in browser as a row the session token names, so that its owner can see it and end it. Tokens issued
-- before this migration name none and are refused: everyone signs in once more.
CREATE TABLE "account_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"session_version" integer NOT NULL,
	"user_agent" text NOT NULL,
	"network" text NOT NULL,
	"signed_in_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "account_sessions" ADD CONSTRAINT "account_sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "account_sessions_account_seen" ON "account_sessions" USING btree ("account_id","last_seen_at");
