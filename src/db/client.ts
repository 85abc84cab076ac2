import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

// One Drizzle instance per D1 binding: building one walks the whole schema (relational config),
// which every request paid before.
const instances = new WeakMap<D1Database, ReturnType<typeof create>>();
const create = (d1: D1Database) => drizzle(d1, { schema });

export const db = (d1: D1Database) => {
  let instance = instances.get(d1);
  if (!instance) instances.set(d1, (instance = create(d1)));
  return instance;
};
export type Db = ReturnType<typeof db>;
