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
ALTER TABLE "advert" ADD CONSTRAINT "advert_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_district" ADD CONSTRAINT "site_district_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_template" ADD CONSTRAINT "site_template_site_id_mall_site_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."mall_site"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advert_site_position_idx" ON "advert" USING btree ("site_id","position","sort");