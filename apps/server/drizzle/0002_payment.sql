CREATE TABLE "pay_journal" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"code_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"entry_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_merchant" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"appid" text NOT NULL,
	"mchid" text NOT NULL,
	"serial_no" text NOT NULL,
	"private_key_pem" text NOT NULL,
	"api_v3_key" text NOT NULL,
	"platform_keys" jsonb NOT NULL,
	"api_base" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_notify" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"kind" text NOT NULL,
	"event_id" text,
	"out_trade_no" text,
	"headers" jsonb NOT NULL,
	"body" text NOT NULL,
	"outcome" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pay_refund" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"code_id" bigint NOT NULL,
	"out_refund_no" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wechat_code" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"order_id" bigint NOT NULL,
	"order_no" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"code_url" text NOT NULL,
	"state" text NOT NULL,
	"cash_amount" integer NOT NULL,
	"points_amount" integer NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"transaction_id" text,
	"paid_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wechat_code_amounts_check" CHECK ("wechat_code"."cash_amount" > 0 and "wechat_code"."points_amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "pay_journal" ADD CONSTRAINT "pay_journal_code_id_wechat_code_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."wechat_code"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pay_refund" ADD CONSTRAINT "pay_refund_code_id_wechat_code_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."wechat_code"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wechat_code" ADD CONSTRAINT "wechat_code_order_id_mall_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mall_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pay_journal_key_idx" ON "pay_journal" USING btree ("entry_key");--> statement-breakpoint
CREATE INDEX "pay_journal_order_idx" ON "pay_journal" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "pay_notify_trade_idx" ON "pay_notify" USING btree ("out_trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "pay_refund_no_idx" ON "pay_refund" USING btree ("out_refund_no");--> statement-breakpoint
CREATE INDEX "pay_refund_status_idx" ON "pay_refund" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "wechat_code_out_trade_no_idx" ON "wechat_code" USING btree ("out_trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "wechat_code_transaction_idx" ON "wechat_code" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wechat_code_open_idx" ON "wechat_code" USING btree ("order_id") WHERE "wechat_code"."state" = 'open';--> statement-breakpoint
CREATE INDEX "wechat_code_order_idx" ON "wechat_code" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "wechat_code_reconcile_idx" ON "wechat_code" USING btree ("created_at") WHERE "wechat_code"."state" = 'open';