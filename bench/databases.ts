/** The PostgreSQL server the benchmarks that compare both databases create their databases on. */
export const POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
