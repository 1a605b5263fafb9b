ALTER TABLE "benefit" ADD COLUMN "vip_level_id" integer;--> statement-breakpoint
ALTER TABLE "benefit" ADD CONSTRAINT "benefit_vip_level_id_vip_level_id_fk" FOREIGN KEY ("vip_level_id") REFERENCES "public"."vip_level"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "benefit" ADD CONSTRAINT "benefit_window_check" CHECK ("benefit"."start_at" < "benefit"."end_at");