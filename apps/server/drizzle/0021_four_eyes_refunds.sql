CREATE TABLE "order_refund_request" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"maker_id" integer NOT NULL,
	"approver_id" integer,
	"decision_reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "order_refund_request_checker" CHECK ("order_refund_request"."approver_id" is null or "order_refund_request"."approver_id" <> "order_refund_request"."maker_id"),
	CONSTRAINT "order_refund_request_status" CHECK ("order_refund_request"."status" in ('submitted', 'approved', 'executed', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "console_site_policy" ADD COLUMN "refund_threshold" integer DEFAULT 100000 NOT NULL;--> statement-breakpoint
ALTER TABLE "console_site_policy" ADD COLUMN "updated_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "order_refund_request_site_idx" ON "order_refund_request" USING btree ("site_id","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_refund_request_open_uniq" ON "order_refund_request" USING btree ("order_no") WHERE "order_refund_request"."status" in ('submitted', 'approved');