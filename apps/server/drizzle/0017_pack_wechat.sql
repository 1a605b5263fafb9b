ALTER TABLE "pack_order" DROP CONSTRAINT "pack_order_amount_check";--> statement-breakpoint
ALTER TABLE "wechat_code" DROP CONSTRAINT "wechat_code_order_id_mall_order_id_fk";
--> statement-breakpoint
DROP INDEX "wechat_code_open_idx";--> statement-breakpoint
DROP INDEX "wechat_code_order_idx";--> statement-breakpoint
ALTER TABLE "pack_order" ADD COLUMN "expire_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wechat_code" ADD COLUMN "payee" text DEFAULT 'order' NOT NULL;--> statement-breakpoint
CREATE INDEX "pack_order_expire_idx" ON "pack_order" USING btree ("expire_at") WHERE "pack_order"."status" = 'unpaid';--> statement-breakpoint
CREATE UNIQUE INDEX "wechat_code_open_idx" ON "wechat_code" USING btree ("payee","order_id") WHERE "wechat_code"."state" = 'open';--> statement-breakpoint
CREATE INDEX "wechat_code_order_idx" ON "wechat_code" USING btree ("payee","order_id","id");--> statement-breakpoint
ALTER TABLE "pack_order" ADD CONSTRAINT "pack_order_unpaid_check" CHECK ("pack_order"."status" <> 'unpaid' or "pack_order"."expire_at" is not null);--> statement-breakpoint
ALTER TABLE "pack_order" ADD CONSTRAINT "pack_order_amount_check" CHECK ("pack_order"."pay_amount" >= 0 and "pack_order"."status" in ('unpaid', 'paid', 'closed', 'refunded'));--> statement-breakpoint
ALTER TABLE "wechat_code" ADD CONSTRAINT "wechat_code_payee_check" CHECK ("wechat_code"."payee" in ('order', 'pack'));