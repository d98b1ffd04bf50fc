// npm run bench — see bench/README.md. Benchmarks are added with the operations they measure.
const url = process.env['BENCH_DATABASE_URL'] ?? process.env['DATABASE_URL'];
if (!url) {
  console.error('bench: set BENCH_DATABASE_URL (or DATABASE_URL) to a PostgreSQL database the benchmark may fill');
  process.exit(2);
}
console.log('no benchmarks registered yet');
