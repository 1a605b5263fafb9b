CREATE TABLE "seckill_activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"session_ids" integer[] NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"member_limit" integer DEFAULT 1 NOT NULL,
	"order_limit" integer DEFAULT 1 NOT NULL,
	"expire_minutes" integer DEFAULT 5 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	CONSTRAINT "seckill_activity_limits_check" CHECK ("seckill_activity"."member_limit" >= 1 and "seckill_activity"."order_limit" >= 1),
	CONSTRAINT "seckill_activity_expire_check" CHECK ("seckill_activity"."expire_minutes" between 1 and 1440)
);
--> statement-breakpoint
CREATE TABLE "seckill_order" (
	"order_no" text PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"specification_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"num" smallint NOT NULL,
	"returned_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "seckill_purchase" (
	"activity_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"qty" integer NOT NULL,
	CONSTRAINT "seckill_purchase_activity_id_member_id_pk" PRIMARY KEY("activity_id","member_id"),
	CONSTRAINT "seckill_purchase_qty_check" CHECK ("seckill_purchase"."qty" >= 0)
);
--> statement-breakpoint
CREATE TABLE "seckill_session" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	CONSTRAINT "seckill_session_time_check" CHECK ("seckill_session"."start_time" < "seckill_session"."end_time")
);
--> statement-breakpoint
CREATE TABLE "seckill_sku" (
	"activity_id" integer NOT NULL,
	"specification_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"price" integer NOT NULL,
	"total_stock" integer NOT NULL,
	"stock" integer NOT NULL,
	CONSTRAINT "seckill_sku_activity_id_specification_id_pk" PRIMARY KEY("activity_id","specification_id"),
	CONSTRAINT "seckill_sku_stock_check" CHECK ("seckill_sku"."stock" >= 0 and "seckill_sku"."stock" <= "seckill_sku"."total_stock"),
	CONSTRAINT "seckill_sku_price_check" CHECK ("seckill_sku"."price" >= 0)
);
--> statement-breakpoint
ALTER TABLE "seckill_sku" ADD CONSTRAINT "seckill_sku_activity_id_seckill_activity_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."seckill_activity"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "seckill_activity_site_idx" ON "seckill_activity" USING btree ("site_id","end_at");--> statement-breakpoint
CREATE INDEX "seckill_session_site_idx" ON "seckill_session" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "seckill_sku_product_idx" ON "seckill_sku" USING btree ("site_id","product_id");