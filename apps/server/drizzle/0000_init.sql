CREATE TABLE "member_address" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"consignee" text NOT NULL,
	"phone" text NOT NULL,
	"province_code" text NOT NULL,
	"province_name" text NOT NULL,
	"city_code" text NOT NULL,
	"city_name" text NOT NULL,
	"district_code" text DEFAULT '' NOT NULL,
	"district_name" text DEFAULT '' NOT NULL,
	"detail" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cart_line" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"specification_id" integer NOT NULL,
	"num" integer NOT NULL,
	"is_selected" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cart_line_num_check" CHECK ("cart_line"."num" between 1 and 999)
);
--> statement-breakpoint
CREATE TABLE "advert_product" (
	"advert_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "advert_product_advert_id_product_id_pk" PRIMARY KEY("advert_id","product_id")
);
--> statement-breakpoint
CREATE TABLE "category" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"group_id" integer NOT NULL,
	"cat_name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "category_group" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"label_id" integer NOT NULL,
	"level_name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "category_label" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"lable_name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mall_notice" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "merchant_application" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer,
	"phone" text NOT NULL,
	"contact_name" text NOT NULL,
	"company_name" text NOT NULL,
	"shop_name" text NOT NULL,
	"credit_code" text NOT NULL,
	"licence_url" text NOT NULL,
	"main_category" text NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"reject_reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product" (
	"id" serial PRIMARY KEY NOT NULL,
	"shop_id" integer NOT NULL,
	"kind" text NOT NULL,
	"brand" text DEFAULT '' NOT NULL,
	"name" text NOT NULL,
	"subtitle" text DEFAULT '' NOT NULL,
	"images" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"source" integer NOT NULL,
	"source_type" integer DEFAULT 1 NOT NULL,
	"order_type" smallint DEFAULT 1 NOT NULL,
	"market_price" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name_terms" text[] DEFAULT '{}' NOT NULL,
	"keyword_terms" text[] DEFAULT '{}' NOT NULL,
	"char_terms" text[] DEFAULT '{}' NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(array_to_tsvector(name_terms), 'A') || setweight(array_to_tsvector(keyword_terms), 'B') || setweight(array_to_tsvector(char_terms), 'D')) STORED NOT NULL,
	CONSTRAINT "product_market_price_check" CHECK ("product"."market_price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "product_specification" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer NOT NULL,
	"specification_value" text NOT NULL,
	"stock" integer DEFAULT 0 NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "product_specification_stock_check" CHECK ("product_specification"."stock" >= 0)
);
--> statement-breakpoint
CREATE TABLE "service_channel" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"value" text NOT NULL,
	"hours" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_message" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer,
	"name" text NOT NULL,
	"phone" text NOT NULL,
	"topic" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop" (
	"id" serial PRIMARY KEY NOT NULL,
	"shop_name" text NOT NULL,
	"logo" text DEFAULT '' NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_price" (
	"site_id" integer NOT NULL,
	"specification_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"price" integer NOT NULL,
	CONSTRAINT "site_price_site_id_specification_id_pk" PRIMARY KEY("site_id","specification_id"),
	CONSTRAINT "site_price_price_check" CHECK ("site_price"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "site_product" (
	"site_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"price" integer NOT NULL,
	"sales" integer DEFAULT 0 NOT NULL,
	"limit_num" integer DEFAULT 0 NOT NULL,
	"is_on_sale" boolean DEFAULT true NOT NULL,
	"listed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_product_site_id_product_id_pk" PRIMARY KEY("site_id","product_id"),
	CONSTRAINT "site_product_price_check" CHECK ("site_product"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tiny_page" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"title" text NOT NULL,
	"blocks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_home" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "external_identity" (
	"site_id" integer NOT NULL,
	"partner" text NOT NULL,
	"external_id" text NOT NULL,
	"member_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "external_identity_site_id_partner_external_id_pk" PRIMARY KEY("site_id","partner","external_id")
);
--> statement-breakpoint
CREATE TABLE "image_code" (
	"id" text PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"answer" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"phone" text,
	"username" text,
	"password_hash" text,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_session" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text,
	CONSTRAINT "member_session_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "sms_code" (
	"site_id" integer NOT NULL,
	"phone" text NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "sms_code_site_id_phone_purpose_pk" PRIMARY KEY("site_id","phone","purpose")
);
--> statement-breakpoint
CREATE TABLE "used_nonce" (
	"nonce" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "child_order" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"child_order_no" text NOT NULL,
	"site_id" integer NOT NULL,
	"source" integer NOT NULL,
	"source_type" integer NOT NULL,
	"source_name" text NOT NULL,
	"has_address" boolean NOT NULL,
	"status" smallint NOT NULL,
	"goods_amount" integer NOT NULL,
	"freight_amount" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mall_order" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_no" text NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"status" smallint NOT NULL,
	"order_type" smallint DEFAULT 1 NOT NULL,
	"goods_amount" integer NOT NULL,
	"freight_amount" integer NOT NULL,
	"pay_amount" integer NOT NULL,
	"is_virtual" boolean NOT NULL,
	"address" jsonb,
	"remark" text DEFAULT '' NOT NULL,
	"request_key" text,
	"pay_way" text,
	"paid_at" timestamp with time zone,
	"expire_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mall_order_amounts_check" CHECK ("mall_order"."goods_amount" >= 0 and "mall_order"."freight_amount" >= 0 and "mall_order"."pay_amount" >= 0)
);
--> statement-breakpoint
CREATE TABLE "order_line" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"child_order_id" bigint NOT NULL,
	"site_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"specification_id" integer NOT NULL,
	"name" text NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"specification_value" text NOT NULL,
	"price" integer NOT NULL,
	"num" integer NOT NULL,
	"amount" integer NOT NULL,
	CONSTRAINT "order_line_num_check" CHECK ("order_line"."num" > 0 and "order_line"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "order_shipment" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"child_order_id" bigint NOT NULL,
	"company" text NOT NULL,
	"tracking_no" text NOT NULL,
	"events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_status_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" bigint NOT NULL,
	"site_id" integer NOT NULL,
	"from_status" smallint,
	"status" smallint NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "points_account" (
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_account_site_id_member_id_pk" PRIMARY KEY("site_id","member_id"),
	CONSTRAINT "points_account_balance_check" CHECK ("points_account"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "points_entry" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"type" text NOT NULL,
	"order_no" text,
	"note" text DEFAULT '' NOT NULL,
	"request_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "points_entry_amount_check" CHECK ("points_entry"."amount" <> 0),
	CONSTRAINT "points_entry_balance_after_check" CHECK ("points_entry"."balance_after" >= 0)
);
--> statement-breakpoint
CREATE TABLE "advert" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"position" text NOT NULL,
	"type" smallint NOT NULL,
	"title" text NOT NULL,
	"ad_name" text NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mall_site" (
	"id" integer PRIMARY KEY NOT NULL,
	"site_name" text NOT NULL,
	"hotline" text DEFAULT '' NOT NULL,
	"spare_hotline" text DEFAULT '' NOT NULL,
	"login_way" smallint DEFAULT 1 NOT NULL,
	"payway_conf" jsonb DEFAULT '["ye"]'::jsonb NOT NULL,
	"cash_unit" text DEFAULT '积分' NOT NULL,
	"config_json" jsonb NOT NULL,
	"custom_service_pc_switch" smallint DEFAULT 0 NOT NULL,
	"is_usable" smallint DEFAULT 1 NOT NULL,
	"login_order" text DEFAULT '1' NOT NULL,
	"dingtalk_auth_switch" smallint DEFAULT 0 NOT NULL,
	"supply_config" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"advanced_config" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_district" (
	"site_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "site_district_site_id_code_pk" PRIMARY KEY("site_id","code")
);
--> statement-breakpoint
CREATE TABLE "site_template" (
	"site_id" integer NOT NULL,
	"template_name" text NOT NULL,
	"value" jsonb NOT NULL,
	CONSTRAINT "site_template_site_id_template_name_pk" PRIMARY KEY("site_id","template_name")
);
--> statement-breakpoint
ALTER TABLE "advert_product" ADD CONSTRAINT "advert_product_advert_id_advert_id_fk" FOREIGN KEY ("advert_id") REFERENCES "public"."advert"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advert_product" ADD CONSTRAINT "advert_product_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category" ADD CONSTRAINT "category_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category" ADD CONSTRAINT "category_group_id_category_group_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."category_group"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_group" ADD CONSTRAINT "category_group_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_group" ADD CONSTRAINT "category_group_label_id_category_label_id_fk" FOREIGN KEY ("label_id") REFERENCES "public"."category_label"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "category_label" ADD CONSTRAINT "category_label_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mall_notice" ADD CONSTRAINT "mall_notice_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_application" ADD CONSTRAINT "merchant_application_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product" ADD CONSTRAINT "product_shop_id_shop_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shop"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_specification" ADD CONSTRAINT "product_specification_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_channel" ADD CONSTRAINT "service_channel_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_message" ADD CONSTRAINT "service_message_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_price" ADD CONSTRAINT "site_price_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_price" ADD CONSTRAINT "site_price_specification_id_product_specification_id_fk" FOREIGN KEY ("specification_id") REFERENCES "public"."product_specification"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_price" ADD CONSTRAINT "site_price_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_product" ADD CONSTRAINT "site_product_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_product" ADD CONSTRAINT "site_product_product_id_product_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."product"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_product" ADD CONSTRAINT "site_product_category_id_category_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."category"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tiny_page" ADD CONSTRAINT "tiny_page_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_identity" ADD CONSTRAINT "external_identity_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member" ADD CONSTRAINT "member_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_session" ADD CONSTRAINT "member_session_member_id_member_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."member"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "child_order" ADD CONSTRAINT "child_order_order_id_mall_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mall_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_line" ADD CONSTRAINT "order_line_order_id_mall_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mall_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_line" ADD CONSTRAINT "order_line_child_order_id_child_order_id_fk" FOREIGN KEY ("child_order_id") REFERENCES "public"."child_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_shipment" ADD CONSTRAINT "order_shipment_child_order_id_child_order_id_fk" FOREIGN KEY ("child_order_id") REFERENCES "public"."child_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_status_log" ADD CONSTRAINT "order_status_log_order_id_mall_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mall_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advert" ADD CONSTRAINT "advert_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_district" ADD CONSTRAINT "site_district_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_template" ADD CONSTRAINT "site_template_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_address_member_idx" ON "member_address" USING btree ("site_id","member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "member_address_default_idx" ON "member_address" USING btree ("site_id","member_id") WHERE "member_address"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "cart_line_member_spec_idx" ON "cart_line" USING btree ("site_id","member_id","specification_id");--> statement-breakpoint
CREATE INDEX "cart_line_member_idx" ON "cart_line" USING btree ("site_id","member_id","created_at");--> statement-breakpoint
CREATE INDEX "category_group_idx" ON "category" USING btree ("group_id","sort");--> statement-breakpoint
CREATE INDEX "category_site_idx" ON "category" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "category_group_label_idx" ON "category_group" USING btree ("label_id","sort");--> statement-breakpoint
CREATE INDEX "category_label_site_idx" ON "category_label" USING btree ("site_id","sort");--> statement-breakpoint
CREATE INDEX "mall_notice_site_idx" ON "mall_notice" USING btree ("site_id","start_at");--> statement-breakpoint
CREATE INDEX "merchant_application_phone_idx" ON "merchant_application" USING btree ("site_id","phone");--> statement-breakpoint
CREATE INDEX "merchant_application_member_idx" ON "merchant_application" USING btree ("site_id","member_id");--> statement-breakpoint
CREATE INDEX "product_search_idx" ON "product" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "product_shop_idx" ON "product" USING btree ("shop_id");--> statement-breakpoint
CREATE INDEX "product_specification_product_idx" ON "product_specification" USING btree ("product_id","sort");--> statement-breakpoint
CREATE INDEX "service_channel_site_idx" ON "service_channel" USING btree ("site_id","sort");--> statement-breakpoint
CREATE INDEX "service_message_site_idx" ON "service_message" USING btree ("site_id","created_at");--> statement-breakpoint
CREATE INDEX "site_price_product_idx" ON "site_price" USING btree ("site_id","product_id");--> statement-breakpoint
CREATE INDEX "site_product_cat_sales_idx" ON "site_product" USING btree ("site_id","category_id","sales","product_id");--> statement-breakpoint
CREATE INDEX "site_product_cat_price_idx" ON "site_product" USING btree ("site_id","category_id","price","product_id");--> statement-breakpoint
CREATE INDEX "site_product_cat_new_idx" ON "site_product" USING btree ("site_id","category_id","listed_at","product_id");--> statement-breakpoint
CREATE INDEX "site_product_sales_idx" ON "site_product" USING btree ("site_id","sales","product_id");--> statement-breakpoint
CREATE INDEX "site_product_price_idx" ON "site_product" USING btree ("site_id","price","product_id");--> statement-breakpoint
CREATE INDEX "site_product_new_idx" ON "site_product" USING btree ("site_id","listed_at","product_id");--> statement-breakpoint
CREATE INDEX "site_product_product_idx" ON "site_product" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "tiny_page_site_idx" ON "tiny_page" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "external_identity_member_idx" ON "external_identity" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "member_site_phone_uq" ON "member" USING btree ("site_id","phone");--> statement-breakpoint
CREATE UNIQUE INDEX "member_site_username_uq" ON "member" USING btree ("site_id","username");--> statement-breakpoint
CREATE INDEX "member_session_member_idx" ON "member_session" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "used_nonce_expires_idx" ON "used_nonce" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "child_order_no_idx" ON "child_order" USING btree ("child_order_no");--> statement-breakpoint
CREATE INDEX "child_order_order_idx" ON "child_order" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mall_order_no_idx" ON "mall_order" USING btree ("order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "mall_order_request_key_idx" ON "mall_order" USING btree ("site_id","member_id","request_key");--> statement-breakpoint
CREATE INDEX "mall_order_member_idx" ON "mall_order" USING btree ("site_id","member_id","status","created_at");--> statement-breakpoint
CREATE INDEX "mall_order_member_time_idx" ON "mall_order" USING btree ("site_id","member_id","created_at");--> statement-breakpoint
CREATE INDEX "mall_order_expire_idx" ON "mall_order" USING btree ("expire_at") WHERE "mall_order"."status" = 0;--> statement-breakpoint
CREATE INDEX "order_line_order_idx" ON "order_line" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "order_shipment_child_idx" ON "order_shipment" USING btree ("child_order_id");--> statement-breakpoint
CREATE INDEX "order_status_log_order_idx" ON "order_status_log" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "points_entry_member_idx" ON "points_entry" USING btree ("site_id","member_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "points_entry_request_key_idx" ON "points_entry" USING btree ("site_id","member_id","request_key");--> statement-breakpoint
CREATE INDEX "advert_site_position_idx" ON "advert" USING btree ("site_id","position","sort");