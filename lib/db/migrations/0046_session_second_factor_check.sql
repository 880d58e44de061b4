-- When the person of a session last answered its second factor (the sign-in's code, or a sensitive action's check
-- since): a sensitive action within 10 minutes of it asks for no new code. Sessions open before this have none.
ALTER TABLE "account_sessions" ADD COLUMN "second_factor_at" timestamp with time zone;
