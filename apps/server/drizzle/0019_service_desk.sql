ALTER TABLE "service_message" ADD COLUMN "reply" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "service_message" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "service_message" ADD COLUMN "replied_by" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "service_message_member_idx" ON "service_message" USING btree ("site_id","member_id","id");--> statement-breakpoint
ALTER TABLE "merchant_application" ADD CONSTRAINT "merchant_application_status_check" CHECK ("merchant_application"."status" in (0, 1, 2));--> statement-breakpoint
ALTER TABLE "merchant_application" ADD CONSTRAINT "merchant_application_reason_check" CHECK ("merchant_application"."status" <> 2 or "merchant_application"."reject_reason" <> '');--> statement-breakpoint
ALTER TABLE "service_message" ADD CONSTRAINT "service_message_reply_check" CHECK (("service_message"."reply" = '') = ("service_message"."replied_at" is null));