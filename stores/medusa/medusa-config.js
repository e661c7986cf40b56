// CommonJS, not TypeScript: medusa then needs no TypeScript loader (@swc/core) to read it.
// The demo store's Medusa server (npm run store:medusa). Everything comes from the environment
// the script passes in; the admin dashboard is off (the Admin API is what Returns Desk uses) and
// there is no Redis: Medusa then uses its in-memory event bus, cache and workflow engine.
const { defineConfig } = require("@medusajs/framework/utils");

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS ?? "http://localhost",
      adminCors: process.env.ADMIN_CORS ?? "http://localhost",
      authCors: process.env.AUTH_CORS ?? "http://localhost",
      jwtSecret: process.env.JWT_SECRET ?? "supersecret",
      cookieSecret: process.env.COOKIE_SECRET ?? "supersecret",
    },
  },
  admin: { disable: true },
});
