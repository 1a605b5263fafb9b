ALTER TABLE "product" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "product" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(regexp_replace(array_to_tsvector(name_terms)::text, '''(?= |$)', ''':1', 'g')::tsvector, 'A') || setweight(regexp_replace(array_to_tsvector(keyword_terms)::text, '''(?= |$)', ''':1', 'g')::tsvector, 'B') || setweight(regexp_replace(array_to_tsvector(char_terms)::text, '''(?= |$)', ''':1', 'g')::tsvector, 'D')) STORED NOT NULL;--> statement-breakpoint
-- Dropping the column dropped its index (drizzle-kit does not write it again).
CREATE INDEX "product_search_idx" ON "product" USING gin ("search_vector");
