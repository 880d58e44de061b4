-- The networks an account signed in from with the right password: they still get in while the account's daily cap
-- of failed sign-ins (from every network) is reached.
CREATE TABLE "account_sign_in_networks" (
	"account_id" bigint NOT NULL,
	"network" text NOT NULL,
	"first_signed_in_at" timestamp with time zone NOT NULL,
	"last_signed_in_at" timestamp with time zone NOT NULL,
	CONSTRAINT "account_sign_in_networks_account_id_network_pk" PRIMARY KEY("account_id","network")
);
--> statement-breakpoint
ALTER TABLE "account_sign_in_networks" ADD CONSTRAINT "account_sign_in_networks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "account_sign_in_networks_last" ON "account_sign_in_networks" USING btree ("account_id","last_signed_in_at");
