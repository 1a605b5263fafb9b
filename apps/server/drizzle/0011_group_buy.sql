CREATE TABLE "group_activity" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"name" text NOT NULL,
	"product_id" integer NOT NULL,
	"specification_id" integer NOT NULL,
	"price" integer NOT NULL,
	"team_size" smallint NOT NULL,
	"team_hours" smallint NOT NULL,
	"member_limit" smallint DEFAULT 1 NOT NULL,
	"virtual_fill" boolean DEFAULT false NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_activity_size_check" CHECK ("group_activity"."team_size" between 2 and 50),
	CONSTRAINT "group_activity_hours_check" CHECK ("group_activity"."team_hours" between 1 and 720),
	CONSTRAINT "group_activity_limit_check" CHECK ("group_activity"."member_limit" between 1 and 99),
	CONSTRAINT "group_activity_price_check" CHECK ("group_activity"."price" >= 0),
	CONSTRAINT "group_activity_window_check" CHECK ("group_activity"."start_at" < "group_activity"."end_at")
);
--> statement-breakpoint
CREATE TABLE "group_member" (
	"order_no" text PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"nickname" text NOT NULL,
	"is_leader" boolean DEFAULT false NOT NULL,
	"num" smallint NOT NULL,
	"status" text DEFAULT 'reserved' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_member_status_check" CHECK ("group_member"."status" in ('reserved', 'paid', 'released', 'refunded'))
);
--> statement-breakpoint
CREATE TABLE "group_purchase" (
	"activity_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"qty" integer NOT NULL,
	CONSTRAINT "group_purchase_activity_id_member_id_pk" PRIMARY KEY("activity_id","member_id"),
	CONSTRAINT "group_purchase_qty_check" CHECK ("group_purchase"."qty" >= 0)
);
--> statement-breakpoint
CREATE TABLE "group_team" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"activity_id" integer NOT NULL,
	"leader_member_id" integer NOT NULL,
	"size" smallint NOT NULL,
	"reserved" smallint DEFAULT 0 NOT NULL,
	"paid" smallint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "group_team_counts_check" CHECK ("group_team"."paid" >= 0 and "group_team"."paid" <= "group_team"."reserved" and "group_team"."reserved" <= "group_team"."size"),
	CONSTRAINT "group_team_status_check" CHECK ("group_team"."status" in (0, 1, 2))
);
--> statement-breakpoint
ALTER TABLE "group_member" ADD CONSTRAINT "group_member_team_id_group_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."group_team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_team" ADD CONSTRAINT "group_team_activity_id_group_activity_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."group_activity"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "group_activity_site_idx" ON "group_activity" USING btree ("site_id","end_at");--> statement-breakpoint
CREATE UNIQUE INDEX "group_member_live_idx" ON "group_member" USING btree ("team_id","member_id") WHERE "group_member"."status" <> 'released';--> statement-breakpoint
CREATE INDEX "group_member_member_idx" ON "group_member" USING btree ("site_id","member_id");--> statement-breakpoint
CREATE INDEX "group_team_activity_idx" ON "group_team" USING btree ("activity_id","status");--> statement-breakpoint
CREATE INDEX "group_team_due_idx" ON "group_team" USING btree ("status","expires_at");