CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"operator_id" integer NOT NULL,
	"site_id" integer,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"reason" text DEFAULT '' NOT NULL,
	"ip" text NOT NULL,
	"request_id" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"totp_secret" text,
	"totp_required" boolean DEFAULT false NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_username_unique" UNIQUE("username")
);
--> statement-breakpoint
CREATE TABLE "operator_assignment" (
	"id" serial PRIMARY KEY NOT NULL,
	"operator_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	"site_ids" jsonb
);
--> statement-breakpoint
CREATE TABLE "operator_login_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"username" text NOT NULL,
	"operator_id" integer,
	"result" text NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_role" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"permissions" jsonb NOT NULL,
	CONSTRAINT "operator_role_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "operator_session" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"operator_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "points_issue_batch" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"maker_id" integer NOT NULL,
	"approver_id" integer,
	"file_name" text DEFAULT '' NOT NULL,
	"reason" text NOT NULL,
	"total_amount" integer NOT NULL,
	"needs_approval" boolean NOT NULL,
	"rows" jsonb NOT NULL,
	"refused" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"executed_at" timestamp with time zone,
	CONSTRAINT "points_issue_batch_checker" CHECK ("points_issue_batch"."approver_id" is null or "points_issue_batch"."approver_id" <> "points_issue_batch"."maker_id")
);
--> statement-breakpoint
CREATE TABLE "console_site_policy" (
	"site_id" integer PRIMARY KEY NOT NULL,
	"points_issue_threshold" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operator_assignment" ADD CONSTRAINT "operator_assignment_operator_id_operator_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operator"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_assignment" ADD CONSTRAINT "operator_assignment_role_id_operator_role_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."operator_role"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_session" ADD CONSTRAINT "operator_session_operator_id_operator_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operator"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_site_at_idx" ON "audit_log" USING btree ("site_id","at");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_assignment_role_idx" ON "operator_assignment" USING btree ("operator_id","role_id");--> statement-breakpoint
CREATE INDEX "operator_login_log_at_idx" ON "operator_login_log" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "operator_session_token_idx" ON "operator_session" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "points_issue_batch_site_idx" ON "points_issue_batch" USING btree ("site_id","status","id");--> statement-breakpoint
-- Hand-written (issue 12): the audit log is append-only in the database itself, whatever the
-- application does. TRUNCATE is left to whoever owns the database (tests reset with it).
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END
$$;--> statement-breakpoint
CREATE TRIGGER "audit_log_append_only" BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_append_only"();
