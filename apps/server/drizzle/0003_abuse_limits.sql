CREATE TABLE "upload_day" (
	"day" date PRIMARY KEY NOT NULL,
	"bytes" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failure" (
	"site_id" integer NOT NULL,
	"account" text NOT NULL,
	"ip" text NOT NULL,
	"failures" integer NOT NULL,
	"last_failed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_failure_site_id_account_ip_pk" PRIMARY KEY("site_id","account","ip")
);
--> statement-breakpoint
CREATE TABLE "rate_window" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"ends_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_failure_ip_idx" ON "login_failure" USING btree ("ip","last_failed_at");--> statement-breakpoint
CREATE INDEX "login_failure_last_idx" ON "login_failure" USING btree ("last_failed_at");--> statement-breakpoint
CREATE INDEX "rate_window_ends_idx" ON "rate_window" USING btree ("ends_at");