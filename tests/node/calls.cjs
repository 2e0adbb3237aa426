// The calls tests/name_resolution.py gives on stdin (JSON: [{sql, params}]), each through node-postgres's
// extended protocol, which sends every parameter as text with no type (0); prints each outcome as JSON,
// ["value", text-or-null] or ["error", sqlstate, message], in order.
//   NODE_PATH=<node-postgres's node_modules> node tests/node/calls.cjs HOST PORT DBNAME < calls.json
const pg = require("pg");

async function main() {
  const [host, port, database] = process.argv.slice(2);
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const calls = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const client = new pg.Client({ host, port: Number(port), database, user: "postgres" });
  await client.connect();
  await client.query("SET search_path = ids");
  const outcomes = [];
  for (const { sql, params } of calls) {
    try {
      const result = await client.query({ text: sql, values: params, rowMode: "array" });
      outcomes.push(["value", result.rows[0][0]]);
    } catch (e) {
      outcomes.push(["error", e.code, e.message]);
    }
  }
  await client.end();
  process.stdout.write(JSON.stringify(outcomes));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
