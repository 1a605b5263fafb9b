/** Every table of every module, for Drizzle's query API and drizzle-kit. */
export * from '../modules/site/site.tables';
