-- The outbox carries more than payment notices: each row names its kind, the thing it is about (a refund's id;
-- empty for the order itself), its own notifyUrl (null: the order's, for payment notices only) and, for kinds other
-- than payment, the unsigned form frozen when the event happened (signed at send time, like payment notices).
ALTER TABLE "notifications" ADD COLUMN "kind" text DEFAULT 'payment' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "subject" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "notify_url" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "fields" jsonb;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" IN ('payment', 'refund', 'closed', 'expired'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_form_check" CHECK (("notifications"."kind" = 'payment') = ("notifications"."fields" IS NULL));--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_order_cycle_key";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_order_kind_subject_cycle_key" UNIQUE("order_id","kind","subject","cycle");
