ALTER TABLE "mkt_activity" ADD COLUMN "budget" integer;--> statement-breakpoint
ALTER TABLE "mkt_activity" ADD COLUMN "budget_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mkt_draw" ADD COLUMN "cost_points" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "mkt_gift" ADD COLUMN "address" jsonb;--> statement-breakpoint
ALTER TABLE "mkt_gift" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mkt_white_user" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "mkt_gift_activity_idx" ON "mkt_gift" USING btree ("activity_id","status");--> statement-breakpoint
ALTER TABLE "mkt_activity" ADD CONSTRAINT "mkt_activity_budget_check" CHECK ("mkt_activity"."budget_used" >= 0 and ("mkt_activity"."budget" is null or "mkt_activity"."budget_used" <= "mkt_activity"."budget"));