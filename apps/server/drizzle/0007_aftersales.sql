CREATE TABLE "after_sale" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"after_sale_no" text NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"order_id" bigint NOT NULL,
	"order_no" text NOT NULL,
	"child_order_id" bigint NOT NULL,
	"child_order_no" text NOT NULL,
	"order_line_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"qty" integer NOT NULL,
	"reason" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"pics" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"audit_note" text DEFAULT '' NOT NULL,
	"return_parcel" jsonb,
	"reship_parcel" jsonb,
	"refund_cash" integer DEFAULT 0 NOT NULL,
	"refund_points" integer DEFAULT 0 NOT NULL,
	"status_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "after_sale_amounts_check" CHECK ("after_sale"."qty" > 0 and "after_sale"."refund_cash" >= 0 and "after_sale"."refund_points" >= 0)
);
--> statement-breakpoint
CREATE TABLE "after_sale_comment" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"after_sale_id" bigint NOT NULL,
	"author" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "after_sale_line" (
	"order_line_id" bigint PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"qty" integer NOT NULL,
	"paid_cash" integer NOT NULL,
	"paid_points" integer NOT NULL,
	"refunded_cash" integer DEFAULT 0 NOT NULL,
	"refunded_points" integer DEFAULT 0 NOT NULL,
	"refunded_qty" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "after_sale_line_refund_check" CHECK ("after_sale_line"."refunded_cash" >= 0 and "after_sale_line"."refunded_points" >= 0 and "after_sale_line"."refunded_qty" >= 0
        and "after_sale_line"."refunded_cash" <= "after_sale_line"."paid_cash" and "after_sale_line"."refunded_points" <= "after_sale_line"."paid_points"
        and "after_sale_line"."refunded_qty" <= "after_sale_line"."qty")
);
--> statement-breakpoint
CREATE TABLE "after_sale_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"after_sale_id" bigint NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "after_sale_refund" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"after_sale_id" bigint NOT NULL,
	"channel" text NOT NULL,
	"amount" integer NOT NULL,
	"out_refund_no" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "after_sale_refund_amount_check" CHECK ("after_sale_refund"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "approval_rule" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"min_amount" integer NOT NULL,
	"levels" smallint DEFAULT 1 NOT NULL,
	"expire_hours" integer DEFAULT 48 NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_rule_check" CHECK ("approval_rule"."min_amount" >= 0 and "approval_rule"."levels" in (1, 2) and "approval_rule"."expire_hours" between 1 and 720)
);
--> statement-breakpoint
ALTER TABLE "after_sale_comment" ADD CONSTRAINT "after_sale_comment_after_sale_id_after_sale_id_fk" FOREIGN KEY ("after_sale_id") REFERENCES "public"."after_sale"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "after_sale_log" ADD CONSTRAINT "after_sale_log_after_sale_id_after_sale_id_fk" FOREIGN KEY ("after_sale_id") REFERENCES "public"."after_sale"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "after_sale_refund" ADD CONSTRAINT "after_sale_refund_after_sale_id_after_sale_id_fk" FOREIGN KEY ("after_sale_id") REFERENCES "public"."after_sale"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "after_sale_no_idx" ON "after_sale" USING btree ("after_sale_no");--> statement-breakpoint
CREATE UNIQUE INDEX "after_sale_open_line_idx" ON "after_sale" USING btree ("order_line_id") WHERE "after_sale"."status" not in ('refunded', 'completed', 'cancelled', 'rejected', 'return_refused');--> statement-breakpoint
CREATE INDEX "after_sale_member_idx" ON "after_sale" USING btree ("site_id","member_id","id");--> statement-breakpoint
CREATE INDEX "after_sale_status_idx" ON "after_sale" USING btree ("status","status_at");--> statement-breakpoint
CREATE INDEX "after_sale_comment_case_idx" ON "after_sale_comment" USING btree ("after_sale_id","id");--> statement-breakpoint
CREATE INDEX "after_sale_log_case_idx" ON "after_sale_log" USING btree ("after_sale_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "after_sale_refund_case_idx" ON "after_sale_refund" USING btree ("after_sale_id","channel");--> statement-breakpoint
CREATE UNIQUE INDEX "after_sale_refund_no_idx" ON "after_sale_refund" USING btree ("out_refund_no");