CREATE TABLE "member_vip" (
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"level_id" integer NOT NULL,
	"source" text NOT NULL,
	"expires_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_vip_site_id_member_id_pk" PRIMARY KEY("site_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "member_vip_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"from_level" integer,
	"to_level" integer,
	"reason" text NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vip_level" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"rank" integer NOT NULL,
	"name" text NOT NULL,
	"discount_pct" integer NOT NULL,
	"threshold_type" text DEFAULT 'manual' NOT NULL,
	"threshold" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	CONSTRAINT "vip_level_pct_check" CHECK ("vip_level"."discount_pct" >= 0 and "vip_level"."discount_pct" < 100)
);
--> statement-breakpoint
CREATE TABLE "promotion_budget" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"limit_amount" integer NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "promotion_budget_used_check" CHECK ("promotion_budget"."used" >= 0 and "promotion_budget"."used" <= "promotion_budget"."limit_amount")
);
--> statement-breakpoint
CREATE TABLE "voucher" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"status" text NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"claim_no" integer NOT NULL,
	"order_no" text,
	"locked_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voucher_status_check" CHECK ("voucher"."status" in ('pending_review','unused','locked','used','expired','void')
        and ("voucher"."status" <> 'locked' or "voucher"."order_no" is not null))
);
--> statement-breakpoint
CREATE TABLE "voucher_claim_counter" (
	"template_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"claimed" integer NOT NULL,
	CONSTRAINT "voucher_claim_counter_template_id_member_id_pk" PRIMARY KEY("template_id","member_id"),
	CONSTRAINT "voucher_claim_counter_check" CHECK ("voucher_claim_counter"."claimed" >= 0)
);
--> statement-breakpoint
CREATE TABLE "voucher_event" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"voucher_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"order_no" text,
	"note" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voucher_template" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"cap" integer,
	"threshold" integer DEFAULT 0 NOT NULL,
	"scope" jsonb NOT NULL,
	"stack_group" text DEFAULT 'default' NOT NULL,
	"claim_mode" text NOT NULL,
	"code" text,
	"claim_from" timestamp with time zone,
	"claim_to" timestamp with time zone,
	"valid_mode" text NOT NULL,
	"valid_from" timestamp with time zone,
	"valid_to" timestamp with time zone,
	"valid_days" integer,
	"total_limit" integer,
	"issued" integer DEFAULT 0 NOT NULL,
	"per_member_limit" integer,
	"budget_id" integer,
	"refund_returns" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voucher_template_issued_check" CHECK ("voucher_template"."total_limit" is null or "voucher_template"."issued" <= "voucher_template"."total_limit"),
	CONSTRAINT "voucher_template_value_check" CHECK ("voucher_template"."value" > 0 and ("voucher_template"."kind" <> 'percent' or "voucher_template"."value" < 100) and "voucher_template"."threshold" >= 0),
	CONSTRAINT "voucher_template_kind_check" CHECK ("voucher_template"."kind" in ('amount','percent','points') and "voucher_template"."claim_mode" in ('self','code','issue','review')
        and "voucher_template"."valid_mode" in ('fixed','days') and "voucher_template"."status" in ('draft','active','paused','ended'))
);
--> statement-breakpoint
CREATE TABLE "pack_batch" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"pack_product_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"issued_by" text NOT NULL,
	"approved_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pack_batch_approver_check" CHECK ("pack_batch"."issued_by" <> "pack_batch"."approved_by" and "pack_batch"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "pack_card" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"batch_id" integer NOT NULL,
	"name" text NOT NULL,
	"code_hash" text NOT NULL,
	"code_last4" text NOT NULL,
	"pin_hash" text NOT NULL,
	"face_value" integer NOT NULL,
	"balance" integer NOT NULL,
	"status" text NOT NULL,
	"member_id" integer,
	"bound_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pack_card_balance_check" CHECK ("pack_card"."balance" >= 0 and "pack_card"."balance" <= "pack_card"."face_value")
);
--> statement-breakpoint
CREATE TABLE "pack_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"card_id" integer NOT NULL,
	"delta" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"biz_type" text NOT NULL,
	"biz_id" text NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pack_ledger_balance_check" CHECK ("pack_ledger"."balance_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "pack_product" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"face_value" integer NOT NULL,
	"sale_price" integer NOT NULL,
	"validity_days" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	CONSTRAINT "pack_product_value_check" CHECK ("pack_product"."face_value" > 0 and "pack_product"."sale_price" >= 0 and "pack_product"."validity_days" > 0)
);
--> statement-breakpoint
ALTER TABLE "mall_order" ADD COLUMN "voucher_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_line" ADD COLUMN "voucher_saving" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_line" ADD COLUMN "vip_saving" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "member_vip" ADD CONSTRAINT "member_vip_level_id_vip_level_id_fk" FOREIGN KEY ("level_id") REFERENCES "public"."vip_level"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher" ADD CONSTRAINT "voucher_template_id_voucher_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."voucher_template"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_claim_counter" ADD CONSTRAINT "voucher_claim_counter_template_id_voucher_template_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."voucher_template"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_event" ADD CONSTRAINT "voucher_event_voucher_id_voucher_id_fk" FOREIGN KEY ("voucher_id") REFERENCES "public"."voucher"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voucher_template" ADD CONSTRAINT "voucher_template_budget_id_promotion_budget_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."promotion_budget"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_batch" ADD CONSTRAINT "pack_batch_pack_product_id_pack_product_id_fk" FOREIGN KEY ("pack_product_id") REFERENCES "public"."pack_product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_card" ADD CONSTRAINT "pack_card_batch_id_pack_batch_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."pack_batch"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_ledger" ADD CONSTRAINT "pack_ledger_card_id_pack_card_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."pack_card"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_vip_log_member_idx" ON "member_vip_log" USING btree ("site_id","member_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "vip_level_rank_idx" ON "vip_level" USING btree ("site_id","rank");--> statement-breakpoint
CREATE UNIQUE INDEX "voucher_claim_idx" ON "voucher" USING btree ("template_id","member_id","claim_no");--> statement-breakpoint
CREATE INDEX "voucher_member_idx" ON "voucher" USING btree ("site_id","member_id","status","valid_to");--> statement-breakpoint
CREATE INDEX "voucher_order_idx" ON "voucher" USING btree ("order_no") WHERE "voucher"."order_no" is not null;--> statement-breakpoint
CREATE INDEX "voucher_expiry_idx" ON "voucher" USING btree ("valid_to") WHERE "voucher"."status" = 'unused';--> statement-breakpoint
CREATE INDEX "voucher_event_voucher_idx" ON "voucher_event" USING btree ("voucher_id","id");--> statement-breakpoint
CREATE INDEX "voucher_template_site_idx" ON "voucher_template" USING btree ("site_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "voucher_template_code_idx" ON "voucher_template" USING btree ("site_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "pack_card_code_idx" ON "pack_card" USING btree ("site_id","code_hash");--> statement-breakpoint
CREATE INDEX "pack_card_member_idx" ON "pack_card" USING btree ("site_id","member_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "pack_ledger_biz_idx" ON "pack_ledger" USING btree ("card_id","biz_type","biz_id");--> statement-breakpoint
CREATE INDEX "pack_ledger_card_idx" ON "pack_ledger" USING btree ("card_id","id");--> statement-breakpoint
CREATE INDEX "pack_product_site_idx" ON "pack_product" USING btree ("site_id");