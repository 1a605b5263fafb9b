CREATE TABLE "pack_order" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"member_id" integer NOT NULL,
	"pack_product_id" integer NOT NULL,
	"request_id" text NOT NULL,
	"pay_way" text NOT NULL,
	"pay_amount" integer NOT NULL,
	"as_gift" boolean DEFAULT false NOT NULL,
	"status" text NOT NULL,
	"card_id" integer,
	"code_sealed" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "pack_order_amount_check" CHECK ("pack_order"."pay_amount" >= 0 and "pack_order"."status" in ('paid'))
);
--> statement-breakpoint
ALTER TABLE "pack_card" ALTER COLUMN "batch_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "pack_ledger" ADD COLUMN "order_no" text;--> statement-breakpoint
ALTER TABLE "pack_order" ADD CONSTRAINT "pack_order_pack_product_id_pack_product_id_fk" FOREIGN KEY ("pack_product_id") REFERENCES "public"."pack_product"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pack_order" ADD CONSTRAINT "pack_order_card_id_pack_card_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."pack_card"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pack_order_no_idx" ON "pack_order" USING btree ("order_no");--> statement-breakpoint
CREATE UNIQUE INDEX "pack_order_request_idx" ON "pack_order" USING btree ("site_id","member_id","request_id");--> statement-breakpoint
CREATE INDEX "pack_order_member_idx" ON "pack_order" USING btree ("site_id","member_id","id");--> statement-breakpoint
CREATE INDEX "pack_ledger_order_idx" ON "pack_ledger" USING btree ("order_no");