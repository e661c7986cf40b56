// Drops the e2e servers' PostgreSQL databases (E2E_DATABASE_URL only) once the run is over.
import { postgresDatabases } from "./server.mjs";

export default function teardown() {
  if (process.env.E2E_DATA_DIR) postgresDatabases(process.env.E2E_DATA_DIR, false);
}
