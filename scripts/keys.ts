/**
 * npm run keys -- create --plan <free|personal|pro|corporate> [--owner NAME]
 * npm run keys -- list
 * npm run keys -- revoke <key | key id | prefix>
 * Local D1 by default; --remote for the deployed database; --persist-to DIR for another local state.
 * `create` prints the new key alone on the last line of stdout.
 */
import { parseArgs } from "node:util";
import { createKeyRow, listKeys, revokeKeyRow } from "./lib/keys";
import type { PlanId } from "../src/plans/plans";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    plan: { type: "string", default: "pro" },
    owner: { type: "string" },
    remote: { type: "boolean", default: false },
    "persist-to": { type: "string" },
  },
});
const target = { remote: values.remote, persistTo: values["persist-to"] };
const [command, arg] = positionals;

try {
  if (command === "create") {
    const { id, key } = await createKeyRow(values.plan as PlanId, values.owner, target);
    console.log(`created ${id} (plan ${values.plan}); the key is shown once:`);
    console.log(key);
  } else if (command === "list") {
    const rows = await listKeys(target);
    for (const r of rows) {
      console.log([r.id, `${r.prefix}…`, r.plan, r.owner_id, new Date(r.created_at).toISOString(), r.revoked_at ? `revoked ${new Date(r.revoked_at).toISOString()}` : "active"].join("  "));
    }
    if (!rows.length) console.log("no keys");
  } else if (command === "revoke" && arg) {
    const row = await revokeKeyRow(arg, target);
    console.log(`revoked ${row.id} (${row.prefix}…)`);
  } else {
    console.error("usage: npm run keys -- create --plan <free|personal|pro|corporate> [--owner NAME] | list | revoke <key|id|prefix>  [--remote] [--persist-to DIR]");
    process.exit(2);
  }
} catch (e) {
  console.error(`keys: ${(e as Error).message}`);
  process.exit(1);
}
