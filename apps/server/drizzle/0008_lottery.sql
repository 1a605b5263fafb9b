CREATE TABLE "mkt_activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"code" text NOT NULL,
	"type" smallint DEFAULT 1 NOT NULL,
	"name" text NOT NULL,
	"rule_html" text DEFAULT '' NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"audience" text DEFAULT 'all' NOT NULL,
	"cost_points" integer DEFAULT 0 NOT NULL,
	"chances" integer DEFAULT 1 NOT NULL,
	"period" text DEFAULT 'day' NOT NULL,
	"share_bonus" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	CONSTRAINT "mkt_activity_audience_check" CHECK ("mkt_activity"."audience" in ('all', 'invited')),
	CONSTRAINT "mkt_activity_period_check" CHECK ("mkt_activity"."period" in ('day', 'activity')),
	CONSTRAINT "mkt_activity_numbers_check" CHECK ("mkt_activity"."cost_points" >= 0 and "mkt_activity"."chances" >= 0 and "mkt_activity"."share_bonus" >= 0)
);
--> statement-breakpoint
CREATE TABLE "mkt_chance" (
	"activity_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"period_key" text NOT NULL,
	"site_id" integer NOT NULL,
	"granted" integer NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "mkt_chance_activity_id_member_id_period_key_pk" PRIMARY KEY("activity_id","member_id","period_key"),
	CONSTRAINT "mkt_chance_used_check" CHECK ("mkt_chance"."used" >= 0 and "mkt_chance"."used" <= "mkt_chance"."granted")
);
--> statement-breakpoint
CREATE TABLE "mkt_chance_grant" (
	"activity_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"source" text NOT NULL,
	"source_ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mkt_chance_grant_activity_id_member_id_source_source_ref_pk" PRIMARY KEY("activity_id","member_id","source","source_ref")
);
--> statement-breakpoint
CREATE TABLE "mkt_draw" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"prize_id" integer NOT NULL,
	"request_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mkt_gift" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"draw_id" integer NOT NULL,
	"prize_id" integer NOT NULL,
	"status" smallint NOT NULL,
	"claim_deadline" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mkt_gift_status_check" CHECK ("mkt_gift"."status" in (-1, 0, 1))
);
--> statement-breakpoint
CREATE TABLE "mkt_prize" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	"weight" integer NOT NULL,
	"total" integer,
	"remaining" integer,
	"sort" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "mkt_prize_kind_check" CHECK ("mkt_prize"."kind" in ('none', 'points', 'product')),
	CONSTRAINT "mkt_prize_weight_check" CHECK ("mkt_prize"."weight" >= 0 and "mkt_prize"."amount" >= 0),
	CONSTRAINT "mkt_prize_remaining_check" CHECK ("mkt_prize"."remaining" is null or "mkt_prize"."remaining" >= 0)
);
--> statement-breakpoint
CREATE TABLE "mkt_white_user" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"white_code" text NOT NULL,
	"member_id" integer,
	"phone" text
);
--> statement-breakpoint
ALTER TABLE "mkt_prize" ADD CONSTRAINT "mkt_prize_activity_id_mkt_activity_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."mkt_activity"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mkt_white_user" ADD CONSTRAINT "mkt_white_user_activity_id_mkt_activity_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."mkt_activity"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mkt_activity_code_idx" ON "mkt_activity" USING btree ("site_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "mkt_draw_request_idx" ON "mkt_draw" USING btree ("activity_id","member_id","request_key");--> statement-breakpoint
CREATE UNIQUE INDEX "mkt_gift_draw_idx" ON "mkt_gift" USING btree ("draw_id");--> statement-breakpoint
CREATE INDEX "mkt_gift_member_idx" ON "mkt_gift" USING btree ("site_id","member_id","created_at");--> statement-breakpoint
CREATE INDEX "mkt_prize_activity_idx" ON "mkt_prize" USING btree ("activity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mkt_white_user_code_idx" ON "mkt_white_user" USING btree ("activity_id","white_code");--> statement-breakpoint
CREATE INDEX "mkt_white_user_member_idx" ON "mkt_white_user" USING btree ("activity_id","member_id");--> statement-breakpoint
CREATE INDEX "mkt_white_user_phone_idx" ON "mkt_white_user" USING btree ("activity_id","phone");