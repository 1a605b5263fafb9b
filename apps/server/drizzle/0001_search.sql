-- Custom migration (drizzle-kit generate --custom --name search): the trigram fallback of the
-- catalogue search (search.ts). pg_trgm is loaded by PGlite (db/client.ts) and ships with
-- PostgreSQL's contrib; the index cannot be declared in the tables because the extension must
-- exist first.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "product_name_trgm_idx" ON "product" USING gin ("name" gin_trgm_ops);
