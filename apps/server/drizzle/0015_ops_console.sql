CREATE TABLE "after_sale_refund_proposal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"after_sale_id" bigint NOT NULL,
	"proposer_id" integer NOT NULL,
	"cash" integer NOT NULL,
	"points" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"decider_id" integer,
	"decide_note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "after_sale_refund_proposal_check" CHECK ("after_sale_refund_proposal"."cash" >= 0 and "after_sale_refund_proposal"."points" >= 0 and "after_sale_refund_proposal"."status" in ('proposed', 'executed', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "stock_move" (
	"id" serial PRIMARY KEY NOT NULL,
	"specification_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"delta" integer NOT NULL,
	"stock_after" integer NOT NULL,
	"reason" text NOT NULL,
	"operator_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_move_check" CHECK ("stock_move"."delta" <> 0 and "stock_move"."stock_after" >= 0)
);
--> statement-breakpoint
ALTER TABLE "approval_rule" DROP CONSTRAINT "approval_rule_check";--> statement-breakpoint
ALTER TABLE "approval_rule" ADD COLUMN "min_qty" integer;--> statement-breakpoint
ALTER TABLE "approval_rule" ADD COLUMN "sources" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "approval_rule" ADD COLUMN "vip_level_ids" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "after_sale_refund_proposal" ADD CONSTRAINT "after_sale_refund_proposal_after_sale_id_after_sale_id_fk" FOREIGN KEY ("after_sale_id") REFERENCES "public"."after_sale"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_move" ADD CONSTRAINT "stock_move_specification_id_product_specification_id_fk" FOREIGN KEY ("specification_id") REFERENCES "public"."product_specification"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "after_sale_refund_proposal_open_idx" ON "after_sale_refund_proposal" USING btree ("after_sale_id") WHERE "after_sale_refund_proposal"."status" = 'proposed';--> statement-breakpoint
CREATE INDEX "stock_move_spec_idx" ON "stock_move" USING btree ("specification_id","id");--> statement-breakpoint
ALTER TABLE "approval_rule" ADD CONSTRAINT "approval_rule_check" CHECK ("approval_rule"."min_amount" >= 0 and "approval_rule"."levels" in (1, 2) and "approval_rule"."expire_hours" between 1 and 720
        and ("approval_rule"."min_qty" is null or "approval_rule"."min_qty" > 0));