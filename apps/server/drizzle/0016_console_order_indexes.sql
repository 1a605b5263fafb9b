CREATE INDEX "mall_order_time_idx" ON "mall_order" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "mall_order_site_time_idx" ON "mall_order" USING btree ("site_id","created_at","id");--> statement-breakpoint
CREATE INDEX "mall_order_status_site_idx" ON "mall_order" USING btree ("status","site_id","created_at");--> statement-breakpoint
CREATE INDEX "mall_order_paid_idx" ON "mall_order" USING btree ("paid_at") WHERE "mall_order"."paid_at" is not null;