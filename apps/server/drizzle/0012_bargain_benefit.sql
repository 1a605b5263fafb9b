CREATE TABLE "bargain_activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"product_id" integer NOT NULL,
	"specification_id" integer NOT NULL,
	"floor_price" integer NOT NULL,
	"help_max" integer NOT NULL,
	"cut_min" integer NOT NULL,
	"cut_max" integer NOT NULL,
	"helper_daily_quota" integer DEFAULT 3 NOT NULL,
	"hours" integer DEFAULT 24 NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bargain_activity_window_check" CHECK ("bargain_activity"."start_at" < "bargain_activity"."end_at"),
	CONSTRAINT "bargain_activity_numbers_check" CHECK ("bargain_activity"."floor_price" >= 0 and "bargain_activity"."help_max" between 1 and 100 and "bargain_activity"."cut_min" >= 1
        and "bargain_activity"."cut_max" >= "bargain_activity"."cut_min" and "bargain_activity"."helper_daily_quota" >= 1 and "bargain_activity"."hours" between 1 and 720)
);
--> statement-breakpoint
CREATE TABLE "bargain_help" (
	"record_id" integer NOT NULL,
	"helper_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"cut" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bargain_help_record_id_helper_id_pk" PRIMARY KEY("record_id","helper_id"),
	CONSTRAINT "bargain_help_cut_check" CHECK ("bargain_help"."cut" >= 0)
);
--> statement-breakpoint
CREATE TABLE "bargain_helper_day" (
	"activity_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"day" text NOT NULL,
	"used" integer NOT NULL,
	CONSTRAINT "bargain_helper_day_activity_id_member_id_day_pk" PRIMARY KEY("activity_id","member_id","day"),
	CONSTRAINT "bargain_helper_day_used_check" CHECK ("bargain_helper_day"."used" >= 1)
);
--> statement-breakpoint
CREATE TABLE "bargain_record" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"specification_id" integer NOT NULL,
	"start_price" integer NOT NULL,
	"floor_price" integer NOT NULL,
	"price" integer NOT NULL,
	"help_count" integer DEFAULT 0 NOT NULL,
	"help_max" integer NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"order_no" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bargain_record_status_check" CHECK ("bargain_record"."status" in (1, 2, 3, 4)),
	CONSTRAINT "bargain_record_price_check" CHECK ("bargain_record"."price" >= "bargain_record"."floor_price" and "bargain_record"."price" <= "bargain_record"."start_price" and "bargain_record"."floor_price" >= 0),
	CONSTRAINT "bargain_record_help_check" CHECK ("bargain_record"."help_count" >= 0 and "bargain_record"."help_count" <= "bargain_record"."help_max")
);
--> statement-breakpoint
CREATE TABLE "benefit" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"product_id" integer NOT NULL,
	"specification_id" integer NOT NULL,
	"total" integer NOT NULL,
	"remaining" integer NOT NULL,
	"valid_days" integer DEFAULT 30 NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	CONSTRAINT "benefit_remaining_check" CHECK ("benefit"."remaining" >= 0 and "benefit"."remaining" <= "benefit"."total"),
	CONSTRAINT "benefit_valid_days_check" CHECK ("benefit"."valid_days" between 1 and 3650)
);
--> statement-breakpoint
CREATE TABLE "benefit_receive" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"benefit_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"expire_at" timestamp with time zone NOT NULL,
	"order_no" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "benefit_receive_status_check" CHECK ("benefit_receive"."status" in (-1, 0, 1))
);
--> statement-breakpoint
ALTER TABLE "bargain_help" ADD CONSTRAINT "bargain_help_record_id_bargain_record_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."bargain_record"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bargain_record" ADD CONSTRAINT "bargain_record_activity_id_bargain_activity_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."bargain_activity"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "benefit_receive" ADD CONSTRAINT "benefit_receive_benefit_id_benefit_id_fk" FOREIGN KEY ("benefit_id") REFERENCES "public"."benefit"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bargain_activity_site_idx" ON "bargain_activity" USING btree ("site_id","end_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bargain_record_open_idx" ON "bargain_record" USING btree ("site_id","member_id","product_id") WHERE "bargain_record"."status" in (1, 2);--> statement-breakpoint
CREATE INDEX "bargain_record_activity_idx" ON "bargain_record" USING btree ("activity_id","created_at");--> statement-breakpoint
CREATE INDEX "bargain_record_order_idx" ON "bargain_record" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "bargain_record_expiry_idx" ON "bargain_record" USING btree ("expire_at") WHERE "bargain_record"."status" in (1, 2);--> statement-breakpoint
CREATE INDEX "benefit_site_idx" ON "benefit" USING btree ("site_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "benefit_receive_member_idx" ON "benefit_receive" USING btree ("benefit_id","member_id");--> statement-breakpoint
CREATE INDEX "benefit_receive_mine_idx" ON "benefit_receive" USING btree ("site_id","member_id","created_at");