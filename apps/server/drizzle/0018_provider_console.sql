CREATE TABLE "provider_attempt" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider_order_id" bigint NOT NULL,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"operator_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_attempt_action_check" CHECK ("provider_attempt"."action" in ('issue','cancel','stock','retry','refund'))
);
--> statement-breakpoint
CREATE TABLE "provider_reconciliation" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" text NOT NULL,
	"provider" text NOT NULL,
	"matched" integer NOT NULL,
	"missing_ours" integer NOT NULL,
	"missing_theirs" integer NOT NULL,
	"amount_differs" integer NOT NULL,
	"their_total" bigint NOT NULL,
	"our_total" bigint NOT NULL,
	"items" jsonb NOT NULL,
	"operator_id" integer,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_reconciliation_day_check" CHECK ("provider_reconciliation"."day" ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
	CONSTRAINT "provider_reconciliation_counts_check" CHECK ("provider_reconciliation"."matched" >= 0 and "provider_reconciliation"."missing_ours" >= 0 and "provider_reconciliation"."missing_theirs" >= 0 and "provider_reconciliation"."amount_differs" >= 0)
);
--> statement-breakpoint
ALTER TABLE "provider_attempt" ADD CONSTRAINT "provider_attempt_provider_order_id_provider_order_id_fk" FOREIGN KEY ("provider_order_id") REFERENCES "public"."provider_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_attempt_order_idx" ON "provider_attempt" USING btree ("provider_order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_reconciliation_day_idx" ON "provider_reconciliation" USING btree ("day","provider");