CREATE TABLE "provider_code" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"specification_id" integer NOT NULL,
	"code_sealed" text NOT NULL,
	"code_hash" text NOT NULL,
	"batch" text DEFAULT '' NOT NULL,
	"provider_order_id" bigint,
	"assigned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_order" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"order_id" bigint NOT NULL,
	"order_no" text NOT NULL,
	"child_order_no" text NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"provider_req_id" text NOT NULL,
	"provider_order_id" text,
	"status" text NOT NULL,
	"payload" jsonb NOT NULL,
	"lock_id" text,
	"lock_expires_at" timestamp with time zone,
	"codes" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_retry_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_order_status_check" CHECK ("provider_order"."status" in ('locked','pending','paid','issuing','issued','failed','expired')),
	CONSTRAINT "provider_order_kind_check" CHECK ("provider_order"."kind" in ('movie','topup','code'))
);
--> statement-breakpoint
ALTER TABLE "provider_code" ADD CONSTRAINT "provider_code_provider_order_id_provider_order_id_fk" FOREIGN KEY ("provider_order_id") REFERENCES "public"."provider_order"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_order" ADD CONSTRAINT "provider_order_order_id_mall_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."mall_order"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_code_hash_idx" ON "provider_code" USING btree ("site_id","specification_id","code_hash");--> statement-breakpoint
CREATE INDEX "provider_code_free_idx" ON "provider_code" USING btree ("site_id","specification_id","id") WHERE "provider_code"."provider_order_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_order_req_idx" ON "provider_order" USING btree ("provider_req_id");--> statement-breakpoint
CREATE INDEX "provider_order_order_idx" ON "provider_order" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "provider_order_child_idx" ON "provider_order" USING btree ("child_order_no");--> statement-breakpoint
CREATE INDEX "provider_order_due_idx" ON "provider_order" USING btree ("status","next_retry_at");