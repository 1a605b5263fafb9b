CREATE TABLE "card_freeze" (
	"card_id" integer PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"from_status" text NOT NULL,
	"reason" text NOT NULL,
	"operator_id" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_issue" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"pack_product_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"status" text DEFAULT 'submitted' NOT NULL,
	"maker_id" integer NOT NULL,
	"approver_id" integer,
	"reason" text NOT NULL,
	"pack_batch_id" integer,
	"sealed_codes" text,
	"exported_at" timestamp with time zone,
	"exported_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "card_issue_check" CHECK ("card_issue"."status" in ('submitted','approved','rejected') and "card_issue"."quantity" between 1 and 5000
        and ("card_issue"."approver_id" is null or "card_issue"."approver_id" <> "card_issue"."maker_id")
        and ("card_issue"."sealed_codes" is null or "card_issue"."exported_at" is null))
);
--> statement-breakpoint
ALTER TABLE "card_freeze" ADD CONSTRAINT "card_freeze_card_id_pack_card_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."pack_card"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_issue" ADD CONSTRAINT "card_issue_pack_product_id_pack_product_id_fk" FOREIGN KEY ("pack_product_id") REFERENCES "public"."pack_product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_issue" ADD CONSTRAINT "card_issue_pack_batch_id_pack_batch_id_fk" FOREIGN KEY ("pack_batch_id") REFERENCES "public"."pack_batch"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_issue_site_idx" ON "card_issue" USING btree ("site_id","id");